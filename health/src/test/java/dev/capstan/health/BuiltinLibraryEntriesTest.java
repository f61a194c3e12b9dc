package dev.capstan.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.health.cel.BuiltinLibrary;
import dev.capstan.health.cel.HealthCheckExpr;
import dev.capstan.health.status.ResourceStatus;
import dev.capstan.health.status.Status;
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
 * Library entries against the example objects written for this project from the operators'
 * documentation of their status fields ({@link LibraryCases}).
 */
class BuiltinLibraryEntriesTest {
  private static BuiltinLibrary library;
  private static HealthEvaluator evaluator;

  @BeforeAll
  static void loadLibrary() {
    library = BuiltinLibrary.load();
    evaluator = HealthEvaluator.create(List.of(), library, Clock.systemUTC());
  }

  @TestFactory
  Stream<DynamicTest> everyWrittenExampleGetsItsDocumentedStatus() {
    return forEveryExample("", BuiltinLibraryEntriesTest::check);
  }

  /**
   * An entry may read {@code spec} (replicas, a pause flag), but a tenant's object need not have
   * one: every written example with its {@code spec} removed must still get a status, not an
   * evaluation error.
   */
  @TestFactory
  Stream<DynamicTest> everyWrittenExampleWithoutSpecGetsAStatusNotAnError() {
    return forEveryExample(" without spec", BuiltinLibraryEntriesTest::checkWithoutSpec);
  }

  private static Stream<DynamicTest> forEveryExample(
      String suffix, BiConsumer<String, LibraryCases.Case> check) {
    List<DynamicTest> tests = new ArrayList<>();
    for (LibraryCases.Case example : LibraryCases.load()) {
      String name = example.label() + suffix;
      tests.add(DynamicTest.dynamicTest(name, () -> check.accept(name, example)));
    }
    assertFalse(tests.isEmpty(), "no cases under " + LibraryCases.DIR);
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

  private static void check(String name, LibraryCases.Case example) {
    Map<String, Object> object = example.object();
    String apiVersion = (String) object.get("apiVersion");
    String kind = (String) object.get("kind");
    assertTrue(
        evaluator.coversKind(apiVersion, kind),
        name + ": the library has no entry for " + apiVersion + " " + kind);
    ResourceStatus actual = evaluator.status(object);
    assertEquals(
        Status.valueOf(example.expected()), actual.status(), name + ": " + actual.message());
  }

  private static void checkWithoutSpec(String name, LibraryCases.Case example) {
    Map<String, Object> object = new LinkedHashMap<>(example.object());
    object.remove("spec");
    ResourceStatus actual = evaluator.status(object);
    assertNotEquals(Status.Unknown, actual.status(), name + ": " + actual.message());
  }
}
