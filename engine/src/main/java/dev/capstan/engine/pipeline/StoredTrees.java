package dev.capstan.engine.pipeline;

import dev.capstan.source.core.store.StoredArtifact;
import dev.capstan.source.oci.ArtifactDownloads;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/** Where the engine's artifact store keeps the tree of an artifact digest. */
@FunctionalInterface
public interface StoredTrees {

  /** The directory of the tree stored under {@code digest}; empty if the store has none. */
  Optional<Path> forDigest(String digest);

  /**
   * The stored tree of an ExternalArtifact's file, downloaded into the store when it is not there
   * yet (its URL and digest checked), when {@code namespace} has a fetch slot free.
   *
   * @throws dev.capstan.source.core.SourceException naming what failed
   */
  default StoredArtifact external(
      String namespace, ArtifactDownloads.Wanted wanted, Duration timeout) {
    throw new UnsupportedOperationException("this store does not download external artifacts");
  }
}
