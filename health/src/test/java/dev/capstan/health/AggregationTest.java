package dev.capstan.health;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AggregationTest {
  private final HealthEvaluator evaluator =
      HealthEvaluator.create(List.of(), BuiltinLibrary.none(), Fixtures.CLOCK);

  private static Map<String, Object> widget(String ns, String name, String ready, String skip) {
    return Fixtures.yaml("{apiVersion: example.com/v1, kind: Widget, metadata: {namespace: " + ns
        + ", name: " + name + (skip == null ? "" : ", annotations: {capstan.dev/health: " + skip + "}")
        + "}, status: {conditions: [{type: " + (ready.equals("Stalled") ? "Stalled" : "Ready")
        + ", status: '" + (ready.equals("Stalled") ? "True" : ready) + "', reason: R" + name + ", message: m" + name + "}]}}");
  }

  @Test
  void allCurrentIsCurrent() {
    AggregateHealth health = evaluator.aggregate(List.of(widget("a", "x", "True", null)));
    assertEquals(Status.Current, health.status());
    assertEquals("", health.message());
  }

  @Test
  void anyNotCurrentIsInProgressListedInOrderWithReasons() {
    AggregateHealth health = evaluator.aggregate(List.of(
        widget("b", "z", "False", null), widget("a", "y", "True", null), widget("a", "x", "Unknown", null)));
    assertEquals(Status.InProgress, health.status());
    assertEquals("Widget/a/x is InProgress: mx (Rx); Widget/b/z is InProgress: mz (Rz)", health.message());
    assertEquals(3, health.evaluated());
  }

  @Test
  void anyFailedIsFailedAndSkippedObjectsAreLeftOut() {
    AggregateHealth health = evaluator.aggregate(List.of(
        widget("a", "x", "Stalled", null), widget("a", "y", "False", "skip"), widget("a", "w", "Stalled", "other")));
    assertEquals(Status.Failed, health.status());
    assertEquals(2, health.evaluated());
    assertEquals(2, health.notCurrent().size());
    assertEquals("Widget/a/w", health.notCurrent().get(0).ref().display());
  }

  @Test
  void skipOnlyExcludedObjectsLeaveCurrent() {
    AggregateHealth health = evaluator.aggregate(List.of(widget("a", "y", "False", "skip")));
    assertEquals(Status.Current, health.status());
    assertEquals(0, health.evaluated());
  }
}
