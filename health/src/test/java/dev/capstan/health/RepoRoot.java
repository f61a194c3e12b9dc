package dev.capstan.health;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** The repository root, for tests that read or check files outside the module. */
public final class RepoRoot {
  /** System property that names the repository root explicitly. */
  static final String PROPERTY = "capstan.repoRoot";

  private RepoRoot() {}

  /**
   * The system property if set, else the nearest ancestor of the working directory holding the root
   * pom.
   */
  public static Optional<Path> find() {
    String configured = System.getProperty(PROPERTY);
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
}
