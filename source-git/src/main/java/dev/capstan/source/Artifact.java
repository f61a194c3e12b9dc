package dev.capstan.source;

import java.nio.file.Path;
import java.time.Instant;

/**
 * A published, immutable tree in the artifact store.
 *
 * @param revision e.g. {@code main@sha1:<40 hex>}, {@code v1.2.3@sha1:<40 hex>}, {@code sha1:<40 hex>}
 * @param digest {@code sha256:<64 hex>} of the filtered tree
 * @param path the directory holding the tree; never changes while the artifact exists
 * @param lastUpdateTime when this revision was first stored for the source
 */
public record Artifact(String revision, String digest, Path path, Instant lastUpdateTime) {

  /** The 40-hex commit id inside the revision. */
  public String commitId() {
    return revision.substring(revision.lastIndexOf("sha1:") + "sha1:".length());
  }
}
