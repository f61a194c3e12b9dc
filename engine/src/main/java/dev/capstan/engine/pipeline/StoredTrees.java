package dev.capstan.engine.pipeline;

import java.nio.file.Path;
import java.util.Optional;

/** Where the engine's artifact store keeps the tree of an artifact digest. */
@FunctionalInterface
public interface StoredTrees {

  /** The directory of the tree stored under {@code digest}; empty if the store has none. */
  Optional<Path> forDigest(String digest);
}
