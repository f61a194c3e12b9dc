package dev.capstan.applier.build;

import static dev.capstan.applier.build.BuildFixtures.assertSameObjects;
import static dev.capstan.applier.build.BuildFixtures.buildYaml;
import static dev.capstan.applier.build.BuildFixtures.caseRoot;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Builds every fixture with Capstan and with a real {@code kubectl kustomize} and compares the
 * objects. Uses the kubectl built for the local control plane when present, else one on the PATH.
 */
class KubectlKustomizeIT {
  private static Path kubectl;

  @BeforeAll
  static void findKubectl() {
    Optional<Path> found =
        Stream.concat(
                Stream.of(Path.of(System.getProperty("user.home"), ".cache/capstan/bin/kubectl")),
                Stream.of(System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator))
                    .filter(dir -> !dir.isEmpty())
                    .map(dir -> Path.of(dir, "kubectl")))
            .filter(Files::isExecutable)
            .findFirst();
    if (found.isEmpty() && "true".equals(System.getenv("CI"))) {
      throw new AssertionError("kubectl is required in CI: build the control plane first");
    }
    Assumptions.assumeTrue(found.isPresent(), "no kubectl found: comparison with kubectl kustomize skipped");
    kubectl = found.get();
  }

  private static String kustomize(Path directory) throws IOException, InterruptedException {
    Process process =
        new ProcessBuilder(kubectl.toString(), "kustomize", directory.toString())
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("kubectl kustomize did not finish");
    }
    assertEquals(0, process.exitValue(), "kubectl kustomize " + directory + " failed");
    return output;
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "overlay, prod",
    "generators, .",
    "components, app",
    "patches, .",
    "rbac, .",
  })
  void sameObjectsAsKubectlKustomize(String name, String path) throws Exception {
    Path root = caseRoot(name);
    assertSameObjects(kustomize(root.resolve(path)), buildYaml(root, path, BuildOptions.none()));
  }

  /** A plain directory builds as the kustomization Flux would generate for it. */
  @Test
  void plainDirectoryMatchesAGeneratedKustomization(@TempDir Path copy) throws Exception {
    Path source = caseRoot("plain").resolve("apps");
    try (Stream<Path> files = Files.walk(source)) {
      for (Path file : files.toList()) {
        Path target = copy.resolve(source.relativize(file).toString());
        if (Files.isDirectory(file)) {
          Files.createDirectories(target);
        } else {
          Files.copy(file, target);
        }
      }
    }
    Files.writeString(
        copy.resolve("kustomization.yaml"),
        "resources:\n" + String.join("\n", List.of("- a.yaml", "- sub/b.yml", "- sub/nested")) + "\n");
    assertSameObjects(kustomize(copy), buildYaml(caseRoot("plain"), "apps", BuildOptions.none()));
  }
}
