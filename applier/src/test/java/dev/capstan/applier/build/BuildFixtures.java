package dev.capstan.applier.build;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/** Test cases under {@code src/test/resources/build}: artifact roots and expected outputs. */
final class BuildFixtures {
  private BuildFixtures() {}

  static Path caseRoot(String name) {
    return resource("build/cases/" + name);
  }

  static String expected(String name) {
    try {
      return Files.readString(resource("build/expected/" + name + ".yaml"));
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  static Path resource(String path) {
    try {
      return Path.of(
          Objects.requireNonNull(BuildFixtures.class.getClassLoader().getResource(path), path).toURI());
    } catch (URISyntaxException e) {
      throw new AssertionError(e);
    }
  }

  /** Builds and writes YAML, failing the test with the build error when there is one. */
  static String buildYaml(Path root, String path, BuildOptions options) {
    BuildResult result = new ManifestBuilder().build(root, path, options);
    if (result instanceof BuildResult.Failed failed) {
      fail("build failed: " + failed.error().describe());
    }
    return new ManifestYaml().write(((BuildResult.Built) result).objects());
  }

  static BuildError buildError(Path root, String path, BuildOptions options) {
    BuildResult result = new ManifestBuilder().build(root, path, options);
    if (result instanceof BuildResult.Failed failed) {
      return failed.error();
    }
    throw new AssertionError("expected the build to fail, got:\n"
        + new ManifestYaml().write(((BuildResult.Built) result).objects()));
  }

  /** Compares two multi-document YAML texts as objects, in order, with a readable diff on failure. */
  static void assertSameObjects(String expected, String actual) {
    List<Object> want = documents(expected);
    List<Object> got = documents(actual);
    if (!want.equals(got)) {
      assertEquals(expected.strip(), actual.strip(), "objects differ");
    }
  }

  /** Same text, ignoring the comment lines kubectl prints for deprecated fields. */
  static void assertSameText(String expected, String actual) {
    assertEquals(withoutComments(expected), withoutComments(actual));
  }

  private static String withoutComments(String yaml) {
    return yaml.lines().filter(l -> !l.startsWith("# ")).reduce("", (a, b) -> a + b + "\n").strip();
  }

  static List<Object> documents(String yaml) {
    return new YamlReader().read(yaml, "test").stream()
        .map(YamlDocument::content)
        .filter(Objects::nonNull)
        .toList();
  }
}
