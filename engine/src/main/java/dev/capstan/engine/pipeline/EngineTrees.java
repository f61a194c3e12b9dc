package dev.capstan.engine.pipeline;

import dev.capstan.engine.core.NamespacedName;
import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import dev.capstan.source.core.store.StoredArtifact;
import dev.capstan.source.git.GitSource;
import dev.capstan.source.oci.ArtifactDownloads;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * The engine's stored trees: every kind of source publishes into one store, so a digest names a
 * tree whichever source made it; ExternalArtifacts' files are downloaded into the same store.
 *
 * @param attempts the sources fetched since the store was new (shared with the sources' fetches)
 */
public record EngineTrees(
    GitSource store, ArtifactDownloads downloads, FetchSlots slots, FetchAttempts attempts)
    implements StoredTrees {
  @Override
  public Optional<Path> forDigest(String digest) {
    return store.storedTree(digest);
  }

  @Override
  public boolean onItsWay(String kind, NamespacedName source, String digest) {
    return attempts.onItsWay(kind, source, digest);
  }

  @Override
  public StoredArtifact external(
      String namespace, ArtifactDownloads.Wanted wanted, Duration timeout) {
    FetchSlots.Slot slot =
        slots
            .tryTake(namespace)
            .orElseThrow(
                () ->
                    new SourceException(
                        FailureReason.OCI_PULL_FAILED,
                        "every download slot of its namespace is taken ("
                            + slots.perNamespace()
                            + " at once); it is tried again"));
    try (slot) {
      return downloads.fetch(wanted, timeout);
    }
  }
}
