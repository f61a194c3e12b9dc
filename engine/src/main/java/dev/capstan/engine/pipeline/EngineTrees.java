package dev.capstan.engine.pipeline;

import dev.capstan.source.GitSource;
import dev.capstan.source.StoredArtifact;
import dev.capstan.source.oci.ArtifactDownloads;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * The engine's stored trees: every kind of source publishes into one store, so a digest names a
 * tree whichever source made it; ExternalArtifacts' files are downloaded into the same store.
 */
public final class EngineTrees implements StoredTrees {
  private final GitSource store;
  private final ArtifactDownloads downloads;

  public EngineTrees(GitSource store, ArtifactDownloads downloads) {
    this.store = store;
    this.downloads = downloads;
  }

  @Override
  public Optional<Path> forDigest(String digest) {
    return store.storedTree(digest);
  }

  @Override
  public StoredArtifact external(ArtifactDownloads.Wanted wanted, Duration timeout) {
    return downloads.fetch(wanted, timeout);
  }
}
