package dev.capstan.source.git.verify;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import dev.capstan.source.core.Verified;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.jgit.errors.MissingObjectException;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevObject;
import org.eclipse.jgit.revwalk.RevTag;
import org.eclipse.jgit.revwalk.RevWalk;

/** Applies {@code spec.verify} to a fetched revision before anything is exported. */
public final class RevisionVerifier {

  private RevisionVerifier() {}

  /**
   * @throws SourceException {@link FailureReason#VERIFICATION_FAILED} when a required signature is
   *     missing or wrong, {@link FailureReason#INVALID_SPEC} when a Tag mode meets a ref that is no
   *     tag
   * @param revisionName the ref's name before {@code @sha1:} (a tag's name for the Tag modes)
   * @param tagObject what the remote tag points at (an annotated tag's tag object), or null when
   *     the ref is no tag
   * @param scratch an empty directory for the check's files, deleted by the caller
   */
  public static Verified verify(
      Verification verification,
      Repository repo,
      String revisionName,
      ObjectId tagObject,
      RevCommit commit,
      Path scratch)
      throws IOException {
    Verification.Mode mode = verification.mode();
    if (mode.checksTag() && tagObject == null) {
      throw new SourceException(
          FailureReason.INVALID_SPEC,
          "spec.verify.mode "
              + mode.specName()
              + " needs a tag: set spec.ref.tag, spec.ref.semver or a refs/tags/ spec.ref.name");
    }
    SigningKeys.Check keys = SigningKeys.of(verification.keys()).check(repo, scratch);
    List<String> verified = new ArrayList<>();
    if (mode.checksTag()) {
      String name = revisionName;
      RevTag tag = annotatedTag(repo, tagObject, name);
      String what = "tag '" + name + "'";
      verified.add(
          what
              + " with key '"
              + keys.verify(tag.getRawGpgSignature(), SignedObjects.payload(tag), what)
              + "'");
    }
    if (mode.checksCommit()) {
      String what = "commit '" + commit.name() + "'";
      verified.add(
          what
              + " with key '"
              + keys.verify(commit.getRawGpgSignature(), SignedObjects.payload(commit), what)
              + "'");
    }
    return new Verified(mode.specName(), "verified signature of " + String.join(" and ", verified));
  }

  private static RevTag annotatedTag(Repository repo, ObjectId tagObject, String name)
      throws IOException {
    try (RevWalk walk = new RevWalk(repo)) {
      RevObject object = walk.parseAny(tagObject);
      if (object instanceof RevTag tag) {
        walk.parseBody(tag);
        return tag;
      }
    } catch (MissingObjectException e) {
      // a lightweight tag's commit is there; an annotated tag's object must be too
    }
    throw new SourceException(
        FailureReason.VERIFICATION_FAILED,
        "tag '" + name + "' is a lightweight tag, which carries no signature");
  }
}
