package dev.capstan.cli.objects;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.api.common.ReconcileRequest;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReconcileReportTest {
  private static final String TOKEN = "2026-01-01T00:00:00Z";
  private static final ReconcileRequest REQUEST = new ReconcileRequest(TOKEN);

  private static Condition condition(String type, String status, String reason, String message) {
    return new ConditionBuilder()
        .withType(type)
        .withStatus(status)
        .withReason(reason)
        .withMessage(message)
        .build();
  }

  private static ResourceView ks(
      String handled, long generation, Long observed, Condition... conditions) {
    return new ResourceView(
        "Kustomization",
        "apps",
        "web",
        "2026-01-01T00:00:00Z",
        generation,
        observed,
        List.of(conditions),
        "main@sha1:abc",
        handled,
        false,
        "",
        List.of());
  }

  @Test
  void notFinishedUntilTheRequestIsEchoed() {
    Condition ready = condition("Ready", "True", "ReconciliationSucceeded", "Applied");
    assertFalse(ReconcileReport.finished(ks("", 1, 1L, ready), REQUEST));
    assertFalse(ReconcileReport.finished(ks("2025-12-31T00:00:00Z", 1, 1L, ready), REQUEST));
    assertTrue(ReconcileReport.finished(ks(TOKEN, 1, 1L, ready), REQUEST));
    assertFalse(ReconcileReport.finished(null, REQUEST));
  }

  @Test
  void notFinishedWhileReadyIsUnknownOrTheGenerationIsNotObserved() {
    assertFalse(
        ReconcileReport.finished(
            ks(
                TOKEN,
                1,
                1L,
                condition("Ready", "Unknown", "Progressing", "Reconciliation in progress")),
            REQUEST));
    assertFalse(ReconcileReport.finished(ks(TOKEN, 1, 1L), REQUEST));
    assertFalse(
        ReconcileReport.finished(
            ks(TOKEN, 2, 1L, condition("Ready", "True", "ReconciliationSucceeded", "")), REQUEST));
    assertTrue(
        ReconcileReport.finished(
            ks(TOKEN, 2, 2L, condition("Ready", "False", "HealthCheckFailed", "")), REQUEST));
  }

  @Test
  void aStalledObjectIsFinishedEvenWhileReadyIsUnknown() {
    assertTrue(
        ReconcileReport.finished(
            ks(
                TOKEN,
                1,
                1L,
                condition("Ready", "Unknown", "Progressing", ""),
                condition("Stalled", "True", "DependencyCycle", "a -> b -> a")),
            REQUEST));
  }

  @Test
  void readyTrueReportsTheRevision() {
    ReconcileReport outcome =
        ReconcileReport.of(
            ks(TOKEN, 1, 1L, condition("Ready", "True", "ReconciliationSucceeded", "Applied")));
    assertTrue(outcome.succeeded());
    assertEquals("Kustomization web reconciled: applied revision main@sha1:abc", outcome.message());
  }

  @Test
  void aSourceIsReportedAsFetched() {
    ResourceView oci =
        new ResourceView(
            "OCIRepository",
            "apps",
            "web",
            "2026-01-01T00:00:00Z",
            1,
            1L,
            List.of(condition("Ready", "True", "Succeeded", "stored")),
            "latest@sha256:abc",
            TOKEN,
            false,
            "oci://registry.example/web",
            List.of());
    assertEquals(
        "OCIRepository web reconciled: fetched revision latest@sha256:abc",
        ReconcileReport.of(oci).message());
  }

  @Test
  void readyFalseReportsReasonAndMessage() {
    ReconcileReport outcome =
        ReconcileReport.of(
            ks(
                TOKEN,
                1,
                1L,
                condition(
                    "Ready",
                    "False",
                    "HealthCheckFailed",
                    "Deployment/apps/web: Progress deadline exceeded")));
    assertFalse(outcome.succeeded());
    assertEquals(
        "Kustomization web is not ready Ready=False (HealthCheckFailed):"
            + " Deployment/apps/web: Progress deadline exceeded",
        outcome.message());
  }

  @Test
  void stalledWinsOverReadyInTheReport() {
    ReconcileReport outcome =
        ReconcileReport.of(
            ks(
                TOKEN,
                1,
                1L,
                condition("Ready", "Unknown", "Progressing", ""),
                condition("Stalled", "True", "DependencyCycle", "apps/a -> apps/b -> apps/a")));
    assertFalse(outcome.succeeded());
    assertTrue(
        outcome.message().contains("Stalled=True (DependencyCycle): apps/a -> apps/b -> apps/a"),
        outcome.message());
  }

  @Test
  void timeoutSaysWhetherTheControllerEverAnswered() {
    Duration timeout = Duration.ofSeconds(90);
    assertEquals(
        "timed out after 1m30s waiting for Kustomization apps/web: the controller has not"
            + " handled the request yet (is `capstan run` running?)",
        ReconcileReport.timedOut(ks("", 1, 1L), REQUEST, timeout, "Kustomization apps/web"));
    assertEquals(
        "timed out after 1m30s waiting for Kustomization apps/web: still Ready=Unknown"
            + " (Progressing): waiting for Deployment/apps/web",
        ReconcileReport.timedOut(
            ks(
                TOKEN,
                1,
                1L,
                condition("Ready", "Unknown", "Progressing", "waiting for Deployment/apps/web")),
            REQUEST,
            timeout,
            "Kustomization apps/web"));
    assertTrue(
        ReconcileReport.timedOut(null, REQUEST, timeout, "x").endsWith("the object was deleted"));
  }
}
