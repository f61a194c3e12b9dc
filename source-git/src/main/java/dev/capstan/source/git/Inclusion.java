package dev.capstan.source.git;

import java.util.Objects;

/**
 * Another source's stored artifact to copy into this one's ({@code spec.include[]}).
 *
 * @param name the included GitRepository's name
 * @param revision its artifact's revision
 * @param digest its artifact's digest: the tree is looked up in this store by digest only
 * @param fromPath the directory of the included artifact to copy, or null for all of it
 * @param toPath the directory of this artifact to copy it to, or null for {@code name}
 */
public record Inclusion(
    String name, String revision, String digest, String fromPath, String toPath) {

  public Inclusion {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(revision, "revision");
    Objects.requireNonNull(digest, "digest");
  }

  /** {@code toPath}, or the repository's name when unset, as Flux defaults it. */
  public String target() {
    return toPath == null || toPath.isBlank() ? name : toPath;
  }
}
