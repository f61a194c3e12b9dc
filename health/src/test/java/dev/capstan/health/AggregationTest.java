package dev.capstan.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.health.cel.BuiltinLibrary;
import dev.capstan.health.status.ResourceStatus;
import dev.capstan.health.status.Status;
import dev.capstan.kube.ObjectRef;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AggregationTest {
  private final HealthEvaluator evaluator =
      HealthEvaluator.create(List.of(), BuiltinLibrary.none(), Fixtures.CLOCK);

  private static Map<String, Object> widget(String ns, String name, String ready, String skip) {
    return Fixtures.yaml(
        "{apiVersion: example.com/v1, kind: Widget, metadata: {namespace: "
            + ns
            + ", name: "
            + name
            + (skip == null ? "" : ", annotations: {capstan.dev/health: " + skip + "}")
            + "}, status: {conditions: [{type: "
            + (ready.equals("Stalled") ? "Stalled" : "Ready")
            + ", status: '"
            + (ready.equals("Stalled") ? "True" : ready)
            + "', reason: R"
            + name
            + ", message: m"
            + name
            + "}]}}");
  }

  @Test
  void aCurrentCronJobWhoseLastJobFailedIsANoteNotAFailure() {
    Map<String, Object> cronJob =
        Fixtures.yaml(
            "{apiVersion: batch/v1, kind: CronJob, metadata: {namespace: ops, name: backup},"
                + " status: {lastScheduleTime: '2025-01-01T00:00:00Z', lastSuccessfulTime:"
                + " '2024-12-31T00:00:12Z'}}");
    AggregateHealth health = evaluator.aggregate(List.of(widget("a", "x", "True", null), cronJob));
    assertEquals(Status.Current, health.status());
    assertEquals("", health.message());
    assertEquals(List.of(), health.notCurrent());
    assertEquals(1, health.notes().size());
    assertEquals(
        "CronJob/ops/backup: Resource is always ready, but its last Job, scheduled at"
            + " 2025-01-01T00:00:00Z, did not complete successfully (last success at"
            + " 2024-12-31T00:00:12Z) (LastJobFailed)",
        health.notesMessage());
  }

  @Test
  void allCurrentIsCurrent() {
    AggregateHealth health = evaluator.aggregate(List.of(widget("a", "x", "True", null)));
    assertEquals(Status.Current, health.status());
    assertEquals("", health.message());
    assertEquals("", health.notesMessage());
  }

  @Test
  void anyNotCurrentIsInProgressListedInOrderWithReasons() {
    AggregateHealth health =
        evaluator.aggregate(
            List.of(
                widget("b", "z", "False", null),
                widget("a", "y", "True", null),
                widget("a", "x", "Unknown", null)));
    assertEquals(Status.InProgress, health.status());
    assertEquals(
        "Widget/a/x is InProgress: mx (Rx) [decided by generic conditions]; "
            + "Widget/b/z is InProgress: mz (Rz) [decided by generic conditions]",
        health.message());
    assertEquals(3, health.evaluated());
  }

  @Test
  void anyFailedIsFailedAndSkippedObjectsAreLeftOut() {
    AggregateHealth health =
        evaluator.aggregate(
            List.of(
                widget("a", "x", "Stalled", null),
                widget("a", "y", "False", "skip"),
                widget("a", "w", "Stalled", "other")));
    assertEquals(Status.Failed, health.status());
    assertEquals(2, health.evaluated());
    assertEquals(2, health.notCurrent().size());
    assertEquals("Widget/a/w", health.notCurrent().get(0).ref().display());
  }

  @Test
  void theMessageNamesTheRuleThatDecidedEachObject() {
    Map<String, Object> certificate =
        Fixtures.yaml(
            "{apiVersion: cert-manager.io/v1, kind: Certificate, metadata: {namespace: a, name:"
                + " tls}, status: {conditions: [{type: Ready, status: 'False', reason: Failed,"
                + " message: denied}]}}");
    Map<String, Object> deployment =
        Fixtures.yaml(
            "{apiVersion: apps/v1, kind: Deployment, metadata: {namespace: a, name: web}, spec:"
                + " {replicas: 2}, status: {replicas: 1}}");
    HealthEvaluator withLibrary =
        HealthEvaluator.create(List.of(), BuiltinLibrary.load(), Fixtures.CLOCK);
    AggregateHealth health = withLibrary.aggregate(List.of(certificate, deployment));
    assertEquals(Status.Failed, health.status());
    assertTrue(health.message().contains("Certificate/a/tls is Failed: "), health.message());
    assertTrue(
        health.message().contains("[decided by built-in CEL check cert-manager.io/*/Certificate]"),
        health.message());
    assertTrue(
        health
            .message()
            .contains(
                "Deployment/a/web is InProgress: Replicas: 1/2 (LessReplicas)"
                    + " [decided by kstatus rule for apps/Deployment]"),
        health.message());
  }

  @Test
  void aStatusNoRuleDecidedIsListedWithoutARule() {
    ResourceHealth missing =
        new ResourceHealth(
            ObjectRef.of("v1", "Secret", "a", "s"),
            new ResourceStatus(Status.NotFound, "", "not found"));
    assertEquals("Secret/a/s is NotFound: not found", Aggregation.of(List.of(missing)).message());
  }

  @Test
  void aClusterScopedObjectIsNamedKindSlashName() {
    Map<String, Object> clusterWidget =
        Fixtures.yaml(
            "{apiVersion: example.com/v1, kind: ClusterWidget, metadata: {name: cw}, status:"
                + " {conditions: [{type: Ready, status: 'False', reason: R, message: m}]}}");
    AggregateHealth health = evaluator.aggregate(List.of(clusterWidget));
    assertEquals(
        "ClusterWidget/cw is InProgress: m (R) [decided by generic conditions]", health.message());
    assertFalse(health.message().contains("ClusterWidget//cw"), health.message());
  }

  @Test
  void namespacedAndClusterScopedObjectsAreOrderedByTheirDisplayForm() {
    AggregateHealth health =
        evaluator.aggregate(
            List.of(
                widget("b", "x", "False", null),
                Fixtures.yaml(
                    "{apiVersion: example.com/v1, kind: Widget, metadata: {name: c}, status:"
                        + " {conditions: [{type: Ready, status: 'False'}]}}"),
                widget("a", "z", "False", null)));
    assertEquals(
        List.of("Widget/a/z", "Widget/b/x", "Widget/c"),
        health.notCurrent().stream().map(h -> h.ref().display()).toList());
  }

  @Test
  void skipOnlyExcludedObjectsLeaveCurrent() {
    AggregateHealth health = evaluator.aggregate(List.of(widget("a", "y", "False", "skip")));
    assertEquals(Status.Current, health.status());
    assertEquals(0, health.evaluated());
  }
}
