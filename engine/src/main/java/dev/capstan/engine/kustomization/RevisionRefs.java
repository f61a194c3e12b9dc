package dev.capstan.engine.kustomization;

import dev.capstan.source.git.GitRef;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The ref that fetches exactly one recorded revision ({@code main@sha1:<id>}, {@code sha1:<id>}) of
 * a GitRepository: its commit, on its branch when the spec follows a branch (so that only that
 * branch is fetched), else looked for in every branch and tag.
 */
final class RevisionRefs {
  private static final Pattern REVISION = Pattern.compile("(?:(.+)@)?sha1:([0-9a-f]{40})");

  private RevisionRefs() {}

  /**
   * @throws IllegalArgumentException when {@code revision} is not a Git revision
   */
  static GitRef of(GitRef spec, String revision) {
    Matcher m = REVISION.matcher(revision == null ? "" : revision);
    if (!m.matches()) {
      throw new IllegalArgumentException("'" + revision + "' is not a Git revision (NAME@sha1:ID)");
    }
    String name = m.group(1);
    boolean followsBranch = spec.tag() == null && spec.semver() == null && spec.name() == null;
    String branch = followsBranch && name != null && !name.startsWith("refs/") ? name : null;
    return new GitRef(branch, null, null, null, m.group(2));
  }
}
