package dev.capstan.applier.kustomize;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capstan.kube.BoundedYaml;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every case of the build corpus (src/test/resources/kustomize-corpus, see its README) built by
 * Capstan and by native kustomize of the same pinned version: the same YAML, byte for byte, and the
 * same objects in the same order; cases marked EXPECT_ERROR fail in both, with the expected
 * message. Where Flux's build is not kustomize's, the reference is made Flux's here, independently
 * of Capstan's generator: a case marked PLAIN has no kustomization and is built natively with the
 * one Flux generates; a kustomization without resources is built natively with the {@code
 * buildMetadata: [originAnnotations]} Flux adds; a case marked FLUX_ACCEPTS is refused by kustomize
 * and built by Capstan, as by Flux.
 */
class KustomizeCorpusTest {
  private static final Path CORPUS =
      Path.of(System.getProperty("capstan.corpus", "src/test/resources/kustomize-corpus"));
  // A generous time limit: the cases check what is built, and a loaded machine is slow.
  private static final ManifestBuilder BUILDER =
      new ManifestBuilder(
          BuildLimits.oneShot().withTimeout(Duration.ofMinutes(3)), BuildSandbox.forUser(CORPUS));
  private static final NativeKustomize KUSTOMIZE = NativeKustomize.fromBuild();

  @TempDir static Path scratch;

  @AfterAll
  static void close() {
    BUILDER.close();
  }

  @TestFactory
  Stream<DynamicTest> everyCaseBuildsAsKustomizeBuildsIt() throws IOException {
    List<Path> cases;
    try (Stream<Path> list = Files.list(CORPUS)) {
      cases = list.filter(Files::isDirectory).sorted().toList();
    }
    assertTrue(cases.size() >= 100, "the corpus has " + cases.size() + " cases");
    return cases.stream()
        .map(c -> DynamicTest.dynamicTest(c.getFileName().toString(), () -> check(c)));
  }

  private static void check(Path dir) throws IOException {
    Path expectError = dir.resolve("EXPECT_ERROR");
    if (Files.exists(expectError)) {
      checkFails(dir, Files.readString(expectError).strip());
      return;
    }
    Path fluxAccepts = dir.resolve("FLUX_ACCEPTS");
    if (Files.exists(fluxAccepts)) {
      NativeKustomize.Output refused = KUSTOMIZE.build(dir);
      assertFalse(refused.succeeded(), "native kustomize built a case it should refuse");
      assertTrue(
          refused.stderr().contains(Files.readString(fluxAccepts).strip()), refused.stderr());
      assertInstanceOf(BuildResult.Built.class, BUILDER.build(dir, ".", BuildOptions.none()));
      return;
    }
    Path reference =
        Files.exists(dir.resolve("PLAIN"))
            ? withFluxKustomization(dir)
            : hasResources(dir) ? dir : withOriginAnnotations(dir);
    NativeKustomize.Output expected = KUSTOMIZE.build(reference);
    assertTrue(expected.succeeded(), "native kustomize failed: " + expected.stderr());

    BuildResult printed = BUILDER.print(dir, ".", BuildOptions.none());
    assertInstanceOf(BuildResult.Printed.class, printed, printed.toString());
    assertEquals(expected.stdout(), ((BuildResult.Printed) printed).yaml());

    BuildResult built = BUILDER.build(dir, ".", BuildOptions.none());
    assertInstanceOf(BuildResult.Built.class, built, built.toString());
    assertEquals(
        identities(expected.stdout()),
        ((BuildResult.Built) built).objects().stream().map(KustomizeCorpusTest::identity).toList());
  }

  private static void checkFails(Path dir, String expectedMessage) {
    NativeKustomize.Output expected = KUSTOMIZE.build(dir);
    assertFalse(expected.succeeded(), "native kustomize built an error case");
    BuildResult result = BUILDER.build(dir, ".", BuildOptions.none());
    assertInstanceOf(BuildResult.Failed.class, result, result.toString());
    String message = ((BuildResult.Failed) result).error().message();
    assertTrue(message.contains(expectedMessage), message);
    assertFalse(
        message.contains("\tat ") || message.contains("goroutine "), "no stack trace: " + message);
  }

  private static boolean hasResources(Path dir) throws IOException {
    JsonNode kustomization = yaml(Files.readString(dir.resolve("kustomization.yaml")));
    return kustomization != null && kustomization.has("resources");
  }

  /**
   * A copy of the case whose kustomization has Flux's {@code buildMetadata: [originAnnotations]}.
   */
  private static Path withOriginAnnotations(Path dir) throws IOException {
    Path copy = scratch.resolve(dir.getFileName());
    copyTree(dir, copy);
    Path file = copy.resolve("kustomization.yaml");
    String kustomization = Files.readString(file);
    assertFalse(
        kustomization.contains("buildMetadata"),
        "the corpus test cannot yet replace buildMetadata");
    Files.writeString(file, kustomization + "\nbuildMetadata: [originAnnotations]\n");
    return copy;
  }

  /** Kind/namespace/name of each document of kustomize's output. */
  private static List<String> identities(String yaml) throws IOException {
    List<String> ids = new ArrayList<>();
    List<BoundedYaml.Document> docs;
    try {
      docs = new BoundedYaml().readAll(yaml);
    } catch (BoundedYaml.YamlProblem e) {
      throw new IOException("kustomize's output is not YAML: " + e.getMessage(), e);
    }
    for (BoundedYaml.Document document : docs) {
      JsonNode doc = JSON.valueToTree(document.value());
      if (doc != null && !doc.isNull()) {
        ids.add(
            doc.path("apiVersion").asText()
                + " "
                + doc.path("kind").asText()
                + " "
                + doc.path("metadata").path("namespace").asText()
                + "/"
                + doc.path("metadata").path("name").asText());
      }
    }
    return ids;
  }

  private static String identity(GenericKubernetesResource object) {
    String namespace = object.getMetadata().getNamespace();
    return object.getApiVersion()
        + " "
        + object.getKind()
        + " "
        + (namespace == null ? "" : namespace)
        + "/"
        + object.getMetadata().getName();
  }

  /**
   * A copy of a directory without a kustomization, with the kustomization Flux generates for it:
   * every .yaml and .yml file below it in walk order, and each sub-directory that has a
   * kustomization file (as a directory, not descended into).
   */
  private static Path withFluxKustomization(Path dir) throws IOException {
    Path copy = scratch.resolve(dir.getFileName());
    copyTree(dir, copy);
    List<String> resources = new ArrayList<>();
    listManifests(copy, copy, resources);
    StringBuilder kustomization = new StringBuilder("resources:\n");
    resources.forEach(r -> kustomization.append("- ").append(r).append('\n'));
    Files.writeString(copy.resolve("kustomization.yaml"), kustomization);
    return copy;
  }

  private static void listManifests(Path root, Path dir, List<String> out) throws IOException {
    List<Path> entries;
    try (Stream<Path> list = Files.list(dir)) {
      entries = list.sorted(Comparator.comparing(p -> p.getFileName().toString())).toList();
    }
    for (Path entry : entries) {
      String relative = "./" + root.relativize(entry);
      if (Files.isDirectory(entry)) {
        boolean hasKustomization =
            Stream.of("kustomization.yaml", "kustomization.yml", "Kustomization")
                .anyMatch(name -> Files.isRegularFile(entry.resolve(name)));
        if (hasKustomization) {
          out.add(relative);
        } else {
          listManifests(root, entry, out);
        }
      } else if (relative.endsWith(".yaml") || relative.endsWith(".yml")) {
        out.add(relative);
      }
    }
  }

  private static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> walk = Files.walk(from)) {
      walk.forEach(
          source -> {
            try {
              Path target = to.resolve(from.relativize(source).toString());
              if (Files.isDirectory(source)) {
                Files.createDirectories(target);
              } else {
                Files.copy(source, target);
              }
            } catch (IOException e) {
              throw new UncheckedIOException(e);
            }
          });
    }
  }

  private static final ObjectMapper JSON = new ObjectMapper();

  private static JsonNode yaml(String text) throws IOException {
    try {
      return JSON.valueToTree(new BoundedYaml().readOne(text));
    } catch (BoundedYaml.YamlProblem e) {
      throw new IOException("not YAML: " + e.getMessage(), e);
    }
  }
}
