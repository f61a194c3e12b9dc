package dev.capstan.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

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

  /**
   * Every main Java source of the repository at {@code root}: below a src/main/java, built or not.
   */
  public static List<Path> mainSources(Path root) throws IOException {
    try (Stream<Path> files = Files.walk(root)) {
      return files.filter(RepoRoot::isMainSource).toList();
    }
  }

  private static boolean isMainSource(Path file) {
    String path = file.toString().replace('\\', '/');
    return path.endsWith(".java")
        && path.contains("/src/main/java/")
        && !path.contains("/target/")
        && !path.contains("/.git/");
  }
}
