package dev.capstan.source.git;

/**
 * The Git reference to fetch, with the field names of {@code GitRepository.spec.ref}. When several
 * are set, the most specific wins: commit, then name, then semver, then tag, then branch. A commit
 * may be combined with a branch, which then names the revision. With none set, the remote's default
 * branch (its {@code HEAD}) is fetched.
 */
public record GitRef(String branch, String tag, String semver, String name, String commit) {

  public GitRef {
    branch = blankToNull(branch);
    tag = blankToNull(tag);
    semver = blankToNull(semver);
    name = blankToNull(name);
    commit = blankToNull(commit);
  }

  public static GitRef defaultBranch() {
    return new GitRef(null, null, null, null, null);
  }

  public static GitRef branch(String branch) {
    return new GitRef(branch, null, null, null, null);
  }

  public static GitRef tag(String tag) {
    return new GitRef(null, tag, null, null, null);
  }

  public static GitRef semver(String range) {
    return new GitRef(null, null, range, null, null);
  }

  public static GitRef name(String name) {
    return new GitRef(null, null, null, name, null);
  }

  public static GitRef commit(String sha) {
    return new GitRef(null, null, null, null, sha);
  }

  public GitRef withBranch(String newBranch) {
    return new GitRef(newBranch, tag, semver, name, commit);
  }

  /** A short human description for messages, e.g. {@code branch 'main'}. */
  public String describe() {
    if (commit != null) {
      return branch == null
          ? "commit '" + commit + "'"
          : "commit '" + commit + "' on branch '" + branch + "'";
    }
    if (name != null) {
      return "ref '" + name + "'";
    }
    if (semver != null) {
      return "semver range '" + semver + "'";
    }
    if (tag != null) {
      return "tag '" + tag + "'";
    }
    if (branch != null) {
      return "branch '" + branch + "'";
    }
    return "the default branch";
  }

  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s.trim();
  }
}
