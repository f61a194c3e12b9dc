package dev.capstan.engine.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.capstan.testing.RepoRoot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** engine/README.md names every package of the engine and every one of its test classes. */
class EngineReadmeTest {
  private static final Path ENGINE = RepoRoot.find().resolve("engine");

  @Test
  void theLayoutTableNamesEveryPackage() throws IOException {
    String layout = section("## Layout", "## ");
    List<String> missing =
        packagesUnder(ENGINE.resolve("src/main/java")).stream()
            .filter(p -> !layout.contains("| `" + p + "` |"))
            .toList();
    assertEquals(List.of(), missing, "packages missing from the Layout table of engine/README.md");
  }

  @Test
  void theTestsTableNamesEveryTestClass() throws IOException {
    String tests = section("## Tests", "## ");
    List<String> missing;
    try (Stream<Path> files = Files.walk(ENGINE.resolve("src/test/java"))) {
      missing =
          files
              .map(f -> f.getFileName().toString())
              .filter(n -> n.endsWith("Test.java") || n.endsWith("IT.java"))
              .map(n -> n.substring(0, n.length() - ".java".length()))
              .filter(n -> !tests.contains("`" + n + "`"))
              .sorted()
              .toList();
    }
    assertEquals(
        List.of(), missing, "test classes missing from the Tests table of engine/README.md");
  }

  private static String section(String heading, String nextHeadingPrefix) throws IOException {
    String readme = Files.readString(ENGINE.resolve("README.md"));
    int start = readme.indexOf("\n" + heading + "\n");
    int end = readme.indexOf("\n" + nextHeadingPrefix, start + heading.length() + 2);
    return readme.substring(start, end < 0 ? readme.length() : end);
  }

  private static List<String> packagesUnder(Path sources) throws IOException {
    try (Stream<Path> files = Files.walk(sources)) {
      return files
          .filter(f -> f.toString().endsWith(".java"))
          .map(f -> sources.relativize(f.getParent()).toString().replace('/', '.'))
          .distinct()
          .sorted()
          .toList();
    }
  }
}
