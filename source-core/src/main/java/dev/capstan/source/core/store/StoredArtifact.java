package dev.capstan.source.core.store;

import dev.capstan.source.core.IncludedRevision;
import dev.capstan.source.core.Verified;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A published, immutable tree in the artifact store.
 *
 * @param revision e.g. {@code main@sha1:<40 hex>}, {@code v1.2.3@sha1:<40 hex>}, {@code sha1:<40
 *     hex>}
 * @param digest {@code sha256:<64 hex>} of the filtered tree
 * @param path the directory holding the tree; never changes while the artifact exists
 * @param lastUpdateTime when this revision was first stored for the source
 * @param verified the signatures checked before it was stored, when {@code spec.verify} asked
 * @param included the other sources' artifacts copied into it ({@code spec.include})
 * @param metadata upstream information kept with it, e.g. an OCI manifest's annotations
 */
public record StoredArtifact(
    String revision,
    String digest,
    Path path,
    Instant lastUpdateTime,
    Optional<Verified> verified,
    List<IncludedRevision> included,
    Map<String, String> metadata) {

  public StoredArtifact {
    verified = verified == null ? Optional.empty() : verified;
    included = included == null ? List.of() : List.copyOf(included);
    metadata = metadata == null ? Map.of() : Map.copyOf(metadata);
  }

  public StoredArtifact(
      String revision,
      String digest,
      Path path,
      Instant lastUpdateTime,
      Optional<Verified> verified,
      List<IncludedRevision> included) {
    this(revision, digest, path, lastUpdateTime, verified, included, Map.of());
  }

  public StoredArtifact(String revision, String digest, Path path, Instant lastUpdateTime) {
    this(revision, digest, path, lastUpdateTime, Optional.empty(), List.of());
  }

  /** The 40-hex commit id inside the revision. */
  public String commitId() {
    return revision.substring(revision.lastIndexOf("sha1:") + "sha1:".length());
  }
}
