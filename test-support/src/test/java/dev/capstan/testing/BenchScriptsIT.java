package dev.capstan.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The benchmarks' classpath script works on a fresh clone: a copy of the repository's files and a
 * local Maven repository that holds the third-party artifacts but none of this project's modules.
 */
class BenchScriptsIT {

  @Test
  void classpathOfAModuleIsBuiltFromAFreshCloneWithoutInstalledSiblings(@TempDir Path dir)
      throws Exception {
    Path clone = copyRepositoryFiles(dir.resolve("clone"));
    Path mavenRepo = copyThirdPartyArtifacts(dir.resolve("m2"));
    Path out = dir.resolve("classpath.txt");

    ProcessBuilder builder =
        new ProcessBuilder(
                clone.resolve("deploy/bench/classpath").toString(), "source-git", out.toString())
            .redirectErrorStream(true)
            .directory(clone.toFile());
    builder.environment().put("MAVEN_OPTS", "-Dmaven.repo.local=" + mavenRepo);
    Process process = builder.start();
    process.getOutputStream().close();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(10, TimeUnit.MINUTES), "deploy/bench/classpath did not finish");

    assertEquals(0, process.exitValue(), output);
    String classpath = Files.readString(out);
    assertTrue(classpath.contains("capstan-test-support"), classpath);
    assertTrue(classpath.contains("org.eclipse.jgit"), classpath);
  }

  /** The files git knows of (a clone's), without build output. */
  private static Path copyRepositoryFiles(Path target) throws Exception {
    Path root = RepoRoot.find();
    Process list =
        new ProcessBuilder("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
            .directory(root.toFile())
            .start();
    String names = new String(list.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(list.waitFor(1, TimeUnit.MINUTES) && list.exitValue() == 0, "git ls-files failed");
    for (String name : names.split("\0")) {
      Path source = root.resolve(name);
      if (name.isEmpty() || !Files.isRegularFile(source)) {
        continue;
      }
      Path copy = target.resolve(name);
      Files.createDirectories(copy.getParent());
      Files.copy(source, copy, StandardCopyOption.COPY_ATTRIBUTES);
    }
    return target;
  }

  /** The local repository this build uses, without the project's own artifacts. */
  private static Path copyThirdPartyArtifacts(Path target) throws IOException {
    String configured = System.getProperty("maven.repo.local");
    Path source =
        configured == null || configured.isBlank()
            ? Path.of(System.getProperty("user.home"), ".m2", "repository")
            : Path.of(configured);
    Path own = source.resolve("dev/capstan");
    try (Stream<Path> files = Files.walk(source)) {
      for (Path file : (Iterable<Path>) files::iterator) {
        if (file.startsWith(own) || !Files.isRegularFile(file)) {
          continue;
        }
        Path copy = target.resolve(source.relativize(file));
        Files.createDirectories(copy.getParent());
        Files.copy(file, copy);
      }
    }
    return target;
  }
}
