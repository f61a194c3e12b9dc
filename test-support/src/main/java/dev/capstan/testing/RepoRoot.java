package dev.capstan.testing;

import java.nio.file.Files;
import java.nio.file.Path;

/** Locates the repository root (where {@code deploy/} lives) from a test's working directory. */
public final class RepoRoot {
  private RepoRoot() {}

  /**
   * The nearest directory with deploy/testcluster, from {@code capstan.repoRoot} or the working
   * directory up.
   */
  public static Path find() {
    String configured = System.getProperty("capstan.repoRoot");
    Path dir =
        configured == null || configured.isBlank()
            ? Path.of("").toAbsolutePath()
            : Path.of(configured).toAbsolutePath();
    for (Path p = dir; p != null; p = p.getParent()) {
      if (Files.isDirectory(p.resolve("deploy/testcluster"))) {
        return p;
      }
    }
    return dir;
  }
}
