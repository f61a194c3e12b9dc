package dev.capstan.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capstan.health.cel.BuiltinLibrary;
import dev.capstan.health.cel.HealthCheckExpr;
import dev.capstan.health.yaml.BoundedYaml;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Library entries against example objects written for this project (test resources under {@code
 * library/}): each file is a YAML list of {@code {name, expected, object}} cases, written from the
 * operators' documentation of their status fields.
 */
class BuiltinLibraryEntriesTest {
  private static final String CASES_DIR = "library";
  private static final TypeReference<List<Map<String, Object>>> CASES = new TypeReference<>() {};
  // Through Jackson: whole numbers arrive as Integer, as they do from the engine's client.
  private static final ObjectMapper JSON = new ObjectMapper();

  private static BuiltinLibrary library;
  private static HealthEvaluator evaluator;

  @BeforeAll
  static void loadLibrary() {
    library = BuiltinLibrary.load();
    evaluator = HealthEvaluator.create(List.of(), library, Clock.systemUTC());
  }

  @TestFactory
  Stream<DynamicTest> everyWrittenExampleGetsItsDocumentedStatus()
      throws IOException, URISyntaxException {
    return forEveryExample("", BuiltinLibraryEntriesTest::check);
  }

  /**
   * An entry may read {@code spec} (replicas, a pause flag), but a tenant's object need not have
   * one: every written example with its {@code spec} removed must still get a status, not an
   * evaluation error.
   */
  @TestFactory
  Stream<DynamicTest> everyWrittenExampleWithoutSpecGetsAStatusNotAnError()
      throws IOException, URISyntaxException {
    return forEveryExample(" without spec", BuiltinLibraryEntriesTest::checkWithoutSpec);
  }

  private static Stream<DynamicTest> forEveryExample(
      String suffix, BiConsumer<String, Map<String, Object>> check)
      throws IOException, URISyntaxException {
    List<DynamicTest> tests = new ArrayList<>();
    for (Path file : caseFiles()) {
      for (Map<String, Object> example : JSON.convertValue(readYaml(file), CASES)) {
        String name = file.getFileName() + ": " + example.get("name") + suffix;
        tests.add(DynamicTest.dynamicTest(name, () -> check.accept(name, example)));
      }
    }
    assertFalse(tests.isEmpty(), "no cases under " + CASES_DIR);
    return tests.stream();
  }

  @Test
  void libraryHasAtLeastFortyEntriesAllVersionIndependent() {
    List<HealthCheckExpr> entries = library.entries();
    assertTrue(entries.size() >= 40, "only " + entries.size() + " entries");
    for (HealthCheckExpr entry : entries) {
      assertTrue(
          entry.apiVersion().endsWith("/*"),
          entry.label() + " should match every version of its group");
      assertFalse(entry.current().isEmpty(), entry.label() + " has no current expression");
    }
  }

  @Test
  void groupWideEntryDoesNotOverrideAKindWithItsOwnEntry() {
    assertTrue(evaluator.coversKind("azure.upbound.io/v1beta1", "Subnet"));
    Map<String, Object> providerConfig =
        Map.of(
            "apiVersion",
            "azure.upbound.io/v1beta1",
            "kind",
            "ProviderConfig",
            "metadata",
            Map.of("name", "default"));
    assertEquals(Status.Current, evaluator.status(providerConfig).status());
  }

  @Test
  void userEntryReplacesTheBuiltinOneForTheSameGroupAndKind() {
    HealthCheckExpr alwaysFailed =
        new HealthCheckExpr("cert-manager.io/v1", "Certificate", "false", "", "true");
    HealthEvaluator withUserEntry =
        HealthEvaluator.create(List.of(alwaysFailed), library, Clock.systemUTC());
    Map<String, Object> ready =
        Map.of(
            "apiVersion",
            "cert-manager.io/v1",
            "kind",
            "Certificate",
            "metadata",
            Map.of("name", "web"),
            "status",
            Map.of("conditions", List.of(Map.of("type", "Ready", "status", "True"))));
    assertEquals(Status.Current, evaluator.status(ready).status());
    assertEquals(Status.Failed, withUserEntry.status(ready).status());
  }

  @SuppressWarnings("unchecked")
  private static void check(String name, Map<String, Object> example) {
    Map<String, Object> object = (Map<String, Object>) example.get("object");
    String apiVersion = (String) object.get("apiVersion");
    String kind = (String) object.get("kind");
    assertTrue(
        evaluator.coversKind(apiVersion, kind),
        name + ": the library has no entry for " + apiVersion + " " + kind);
    ResourceStatus actual = evaluator.status(object);
    assertEquals(
        Status.valueOf((String) example.get("expected")),
        actual.status(),
        name + ": " + actual.message());
  }

  @SuppressWarnings("unchecked")
  private static void checkWithoutSpec(String name, Map<String, Object> example) {
    Map<String, Object> object = new LinkedHashMap<>((Map<String, Object>) example.get("object"));
    object.remove("spec");
    ResourceStatus actual = evaluator.status(object);
    assertNotEquals(Status.Unknown, actual.status(), name + ": " + actual.message());
  }

  private static List<Path> caseFiles() throws IOException, URISyntaxException {
    Path dir =
        Path.of(BuiltinLibraryEntriesTest.class.getClassLoader().getResource(CASES_DIR).toURI());
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList();
    }
  }

  private static Object readYaml(Path file) throws IOException {
    try {
      return new BoundedYaml().readOne(Files.readString(file));
    } catch (BoundedYaml.YamlProblem e) {
      throw new IOException(file + ": " + e.getMessage(), e);
    }
  }
}
