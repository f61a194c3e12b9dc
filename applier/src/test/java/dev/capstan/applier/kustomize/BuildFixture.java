package dev.capstan.applier.kustomize;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** A directory of files to build, written by a test, and what building it gives. */
final class BuildFixture {
  private final Path root;

  BuildFixture(Path root) {
    this.root = root;
  }

  /** Writes files, by path relative to the root. */
  BuildFixture files(Map<String, String> files) {
    files.forEach(
        (path, content) -> {
          try {
            Path file = root.resolve(path);
            Files.createDirectories(file.getParent());
            Files.writeString(file, content);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        });
    return this;
  }

  Path root() {
    return root;
  }

  /**
   * A sandbox for a builder that outlives one test: it may read the system's temporary directory,
   * where JUnit makes every test's own.
   */
  static BuildSandbox tempSandbox() {
    return BuildSandbox.forUser(Path.of(System.getProperty("java.io.tmpdir")));
  }

  static List<GenericKubernetesResource> objects(BuildResult result) {
    return assertInstanceOf(BuildResult.Built.class, result, result.toString()).objects();
  }

  static BuildError error(BuildResult result) {
    return assertInstanceOf(BuildResult.Failed.class, result, result.toString()).error();
  }

  static GenericKubernetesResource named(List<GenericKubernetesResource> objects, String name) {
    return objects.stream()
        .filter(o -> o.getMetadata().getName().equals(name))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no object " + name + " in " + objects));
  }

  @SuppressWarnings("unchecked")
  static Object field(GenericKubernetesResource object, String... path) {
    Object value = object.getAdditionalProperties();
    for (String key : path) {
      value = value == null ? null : ((Map<String, Object>) value).get(key);
    }
    return value;
  }
}
