package dev.capstan.source.git;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SemverRange;
import dev.capstan.source.core.SourceException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Ref;

/** Resolves a {@link GitRef} against the refs a remote advertises (pure; no I/O). */
final class RefResolver {

  private static final Pattern FULL_SHA = Pattern.compile("[0-9a-fA-F]{40}");

  private RefResolver() {}

  /** Checks what can be checked without the remote, so bad input fails before any I/O. */
  static void validate(GitRef ref) {
    if (ref.commit() != null && !FULL_SHA.matcher(ref.commit()).matches()) {
      throw new SourceException(
          FailureReason.INVALID_REF,
          "invalid commit '" + ref.commit() + "': expected a full 40-hex SHA-1");
    }
    if (ref.commit() == null && ref.name() == null && ref.semver() != null) {
      SemverRange.parse(ref.semver());
    }
  }

  /** True when the ref can be resolved only by fetching (a commit id). */
  static boolean needsNoListing(GitRef ref) {
    return ref.commit() != null;
  }

  /** Resolution of a commit ref; the commit's presence is checked after the fetch. */
  static ResolvedRef commit(GitRef ref) {
    ObjectId id = ObjectId.fromString(ref.commit().toLowerCase());
    String fetchRef = ref.branch() == null ? null : Constants.R_HEADS + ref.branch();
    return new ResolvedRef(fetchRef, id, ref.branch(), false);
  }

  static ResolvedRef resolve(GitRef ref, Map<String, Ref> remote) {
    if (ref.commit() != null) {
      return commit(ref);
    }
    if (ref.name() != null) {
      return byName(ref.name(), remote);
    }
    if (ref.semver() != null) {
      SemverRange range = SemverRange.parse(ref.semver());
      List<String> tags =
          remote.keySet().stream()
              .filter(n -> n.startsWith(Constants.R_TAGS))
              .map(n -> n.substring(Constants.R_TAGS.length()))
              .toList();
      String tag =
          range
              .highestMatch(tags)
              .orElseThrow(
                  () ->
                      new SourceException(
                          FailureReason.REF_NOT_FOUND,
                          "no tag matches semver range '" + range.text() + "'"));
      return found(Constants.R_TAGS + tag, tag, remote);
    }
    if (ref.tag() != null) {
      return found(Constants.R_TAGS + ref.tag(), ref.tag(), remote, "tag '" + ref.tag() + "'");
    }
    if (ref.branch() != null) {
      return found(
          Constants.R_HEADS + ref.branch(), ref.branch(), remote, "branch '" + ref.branch() + "'");
    }
    return defaultBranch(remote);
  }

  private static ResolvedRef byName(String name, Map<String, Ref> remote) {
    if (!name.startsWith(Constants.R_REFS)) {
      throw new SourceException(
          FailureReason.INVALID_REF,
          "invalid ref name '" + name + "': expected a full name such as refs/heads/main");
    }
    return found(name, name, remote, "ref '" + name + "'");
  }

  private static ResolvedRef defaultBranch(Map<String, Ref> remote) {
    Ref head = remote.get(Constants.HEAD);
    Optional<String> branch = Optional.empty();
    if (head != null && head.isSymbolic()) {
      branch = Optional.of(head.getTarget().getName());
    } else if (head != null) {
      // No symref advertised: pick the branch HEAD points at, preferring the usual names.
      ObjectId id = head.getObjectId();
      branch =
          List.of("main", "master").stream()
              .map(b -> Constants.R_HEADS + b)
              .filter(n -> remote.containsKey(n) && id.equals(remote.get(n).getObjectId()))
              .findFirst()
              .or(
                  () ->
                      remote.values().stream()
                          .filter(r -> r.getName().startsWith(Constants.R_HEADS))
                          .filter(r -> id.equals(r.getObjectId()))
                          .map(Ref::getName)
                          .sorted()
                          .findFirst());
    }
    if (branch.isEmpty()) {
      branch =
          List.of("main", "master").stream()
              .map(b -> Constants.R_HEADS + b)
              .filter(remote::containsKey)
              .findFirst();
    }
    String full =
        branch.orElseThrow(
            () ->
                new SourceException(
                    FailureReason.REF_NOT_FOUND,
                    "the remote has no default branch (no HEAD, main or master)"));
    String shortName =
        full.startsWith(Constants.R_HEADS) ? full.substring(Constants.R_HEADS.length()) : full;
    return found(full, shortName, remote);
  }

  private static ResolvedRef found(String full, String revisionName, Map<String, Ref> remote) {
    return found(full, revisionName, remote, "ref '" + full + "'");
  }

  private static ResolvedRef found(
      String full, String revisionName, Map<String, Ref> remote, String what) {
    Ref ref = remote.get(full);
    if (ref == null || ref.getObjectId() == null) {
      throw new SourceException(FailureReason.REF_NOT_FOUND, what + " does not exist");
    }
    // An annotated tag points at a tag object; the revision names the commit it peels to.
    ObjectId commit = ref.getPeeledObjectId() != null ? ref.getPeeledObjectId() : ref.getObjectId();
    return new ResolvedRef(full, commit, revisionName, true, ref.getObjectId());
  }
}
