package dev.capstan.engine.pipeline;

import dev.capstan.engine.core.NamespacedName;
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
   * Whether the artifact {@code digest} of {@code source} (of {@code kind}, e.g. GitRepository), if
   * the store does not hold it, is on its way: the store is new and the source has not been fetched
   * into it yet, or its status is about to name what was (see {@link FetchAttempts}). Asked before
   * {@link #forDigest}. By default never.
   */
  default boolean onItsWay(String kind, NamespacedName source, String digest) {
    return false;
  }

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
