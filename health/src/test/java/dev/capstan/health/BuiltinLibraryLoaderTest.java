package dev.capstan.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.health.cel.BuiltinLibrary;
import dev.capstan.health.cel.HealthCheckExpr;
import dev.capstan.health.cel.InvalidHealthCheckException;
import dev.capstan.health.status.Status;
import java.util.List;
import org.junit.jupiter.api.Test;

class BuiltinLibraryLoaderTest {

  @Test
  void shippedLibraryLoadsAndCompilesEveryEntry() {
    BuiltinLibrary library = BuiltinLibrary.load();
    assertFalse(library.entries().isEmpty());
    // load() defers compilation to first use; a bad entry must still fail the build here.
    library.compileEveryEntry();
    for (HealthCheckExpr entry : library.entries()) {
      String version =
          entry.apiVersion().endsWith("/*")
              ? entry.apiVersion().replace("/*", "/v1")
              : entry.apiVersion();
      assertTrue(entry.kind().isEmpty() || library.covers(version, entry.kind()), entry::label);
    }
  }

  @Test
  void exactVersionWinsOverWildcardAndUserWinsOverBoth() {
    BuiltinLibrary library =
        BuiltinLibrary.fromYaml(
            """
            - {apiVersion: example.com/*, kind: Widget, current: "false", failed: "true"}
            - {apiVersion: example.com/v2, kind: Widget, current: "true"}
            - {apiVersion: other.com/*, current: "true"}
            """);
    HealthEvaluator builtinOnly = HealthEvaluator.create(List.of(), library, Fixtures.CLOCK);
    assertEquals(
        Status.Failed,
        builtinOnly.status(Fixtures.yaml("{apiVersion: example.com/v1, kind: Widget}")).status());
    assertEquals(
        Status.Current,
        builtinOnly.status(Fixtures.yaml("{apiVersion: example.com/v2, kind: Widget}")).status());
    assertTrue(builtinOnly.coversKind("other.com/v7", "Anything"));
    assertFalse(builtinOnly.coversKind("example.com/v1", "Gadget"));

    HealthEvaluator withUser =
        HealthEvaluator.create(
            List.of(new HealthCheckExpr("example.com/v1", "Widget", "false", "true", null)),
            library,
            Fixtures.CLOCK);
    assertEquals(
        Status.InProgress,
        withUser.status(Fixtures.yaml("{apiVersion: example.com/v2, kind: Widget}")).status());
  }

  @Test
  void aFamilyOfGroupsCoversTheKindsNoOtherEntryCoversTheLongestSuffixFirst() {
    BuiltinLibrary library =
        BuiltinLibrary.fromYaml(
            """
            - {apiVersion: "*.cloud.example.com/*", current: "true"}
            - {apiVersion: "*.eu.cloud.example.com/*", current: "false", failed: "true"}
            - {apiVersion: db.cloud.example.com/*, kind: Instance, current: "false"}
            """);
    HealthEvaluator evaluator = HealthEvaluator.create(List.of(), library, Fixtures.CLOCK);
    assertEquals(Status.Current, status(evaluator, "queue.cloud.example.com/v1", "Queue"));
    assertEquals(Status.Failed, status(evaluator, "queue.eu.cloud.example.com/v1", "Queue"));
    assertEquals(Status.InProgress, status(evaluator, "db.cloud.example.com/v1", "Instance"));
    assertEquals(Status.Current, status(evaluator, "db.cloud.example.com/v1", "Snapshot"));
    assertFalse(evaluator.coversKind("cloud.example.com/v1", "ProviderConfig"));
    assertFalse(evaluator.coversKind("othercloud.example.com/v1", "Queue"));
    InvalidHealthCheckException withKind =
        assertThrows(
            InvalidHealthCheckException.class,
            () -> BuiltinLibrary.fromYaml("- {apiVersion: '*.a.io/*', kind: A, current: 'true'}"));
    assertTrue(withKind.getMessage().contains("cannot name a kind"), withKind::getMessage);
  }

  private static Status status(HealthEvaluator evaluator, String apiVersion, String kind) {
    return evaluator
        .status(
            Fixtures.yaml(
                "{apiVersion: "
                    + apiVersion
                    + ", kind: "
                    + kind
                    + ", metadata: {name: x}, status: {phase: Up}}"))
        .status();
  }

  @Test
  void badEntriesFailTheLoadNamingTheEntry() {
    InvalidHealthCheckException syntax =
        assertThrows(
            InvalidHealthCheckException.class,
            () ->
                BuiltinLibrary.fromYaml(
                    "- {apiVersion: a.io/*, kind: A, current: \"status.ready ==\"}"));
    assertTrue(syntax.getMessage().contains("builtin-health-checks.yaml[0]"), syntax::getMessage);
    assertTrue(syntax.getMessage().contains("a.io/*/A"), syntax::getMessage);
    assertThrows(
        InvalidHealthCheckException.class,
        () ->
            BuiltinLibrary.fromYaml(
                "- {apiVersion: a.io/*, kind: A, current: 'true', curent: 'x'}"));
    assertThrows(
        InvalidHealthCheckException.class,
        () ->
            BuiltinLibrary.fromYaml(
                "- {apiVersion: a.io/*, kind: A, current: 'true'}\n"
                    + "- {apiVersion: a.io/*, kind: A, current: 'true'}"));
    assertThrows(
        InvalidHealthCheckException.class, () -> BuiltinLibrary.fromYaml("apiVersion: a.io/v1"));
  }
}
