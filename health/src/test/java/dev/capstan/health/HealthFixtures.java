package dev.capstan.health;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Finds the shared health fixtures, which live beside the checkout (never inside it) at {@code
 * ../shared/health-fixtures/} relative to the repository root.
 */
final class HealthFixtures {
  private HealthFixtures() {}

  /** The fixture file, if it exists where CI puts it. */
  static Optional<Path> find(String fileName) {
    return RepoRoot.find()
        .map(
            root ->
                root.resolve("..")
                    .resolve("shared")
                    .resolve("health-fixtures")
                    .resolve(fileName)
                    .normalize())
        .filter(Files::isRegularFile);
  }

  /** Whether this run is CI, where a missing fixture file is an error rather than a skip. */
  static boolean inCi() {
    return "true".equalsIgnoreCase(System.getenv("CI"));
  }
}
