package dev.capstan.health;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Finds the shared health fixtures, which live beside the checkout (never inside it) at {@code
 * ../shared/health-fixtures/} relative to the repository root.
 */
final class HealthFixtures {
  /** System property that names the repository root explicitly. */
  static final String REPO_ROOT_PROPERTY = "capstan.repoRoot";

  private HealthFixtures() {}

  /** The fixture file, if it exists where CI puts it. */
  static Optional<Path> find(String fileName) {
    return repoRoot()
        .map(root -> root.resolve("..").resolve("shared").resolve("health-fixtures").resolve(fileName).normalize())
        .filter(Files::isRegularFile);
  }

  /** The repository root: the system property if set, else the nearest ancestor holding the root pom. */
  static Optional<Path> repoRoot() {
    String configured = System.getProperty(REPO_ROOT_PROPERTY);
    if (configured != null && !configured.isBlank()) {
      return Optional.of(Path.of(configured).toAbsolutePath().normalize());
    }
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      if (Files.isRegularFile(dir.resolve("pom.xml")) && Files.isDirectory(dir.resolve("health"))) {
        return Optional.of(dir);
      }
    }
    return Optional.empty();
  }

  /** Whether this run is CI, where a missing fixture file is an error rather than a skip. */
  static boolean inCi() {
    return "true".equalsIgnoreCase(System.getenv("CI"));
  }
}
