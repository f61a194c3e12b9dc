package dev.capstan.engine.ops.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.capstan.engine.pipeline.Outcome;
import org.junit.jupiter.api.Test;

class MetricsObserverTest {

  @Test
  void failuresWrittenToTheStatusAreFailedReconciles() {
    assertEquals(ReconcileOutcome.FAILURE, MetricsObserver.result(Outcome.Kind.TRANSIENT));
    assertEquals(ReconcileOutcome.FAILURE, MetricsObserver.result(Outcome.Kind.TERMINAL));
  }

  @Test
  void progressIsSuccessAndSuspensionIsSkipped() {
    assertEquals(ReconcileOutcome.SUCCESS, MetricsObserver.result(Outcome.Kind.SUCCEEDED));
    assertEquals(ReconcileOutcome.SUCCESS, MetricsObserver.result(Outcome.Kind.WAITING));
    assertEquals(ReconcileOutcome.SKIPPED, MetricsObserver.result(Outcome.Kind.SUSPENDED));
  }

  @Test
  void waitingForADependencyIsNeitherSuccessNorSkipped() {
    assertEquals(
        ReconcileOutcome.DEPENDENCY_NOT_READY,
        MetricsObserver.result(Outcome.Kind.DEPENDENCY_NOT_READY));
    assertEquals("dependency_not_ready", ReconcileOutcome.DEPENDENCY_NOT_READY.tag());
  }
}
