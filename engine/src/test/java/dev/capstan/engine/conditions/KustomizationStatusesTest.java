package dev.capstan.engine.conditions;

import static dev.capstan.engine.conditions.ConditionTypes.HEALTHY;
import static dev.capstan.engine.conditions.ConditionTypes.READY;
import static dev.capstan.engine.conditions.ConditionTypes.RECONCILING;
import static dev.capstan.engine.conditions.ConditionTypes.STALLED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.api.kustomize.Inventory;
import dev.capstan.api.kustomize.InventoryEntry;
import dev.capstan.api.kustomize.KustomizationStatus;
import dev.capstan.health.AggregateHealth;
import dev.capstan.health.Aggregation;
import dev.capstan.health.HealthEvaluator;
import dev.capstan.health.ResourceHealth;
import dev.capstan.health.cel.BuiltinLibrary;
import dev.capstan.health.status.ResourceStatus;
import dev.capstan.health.status.Status;
import dev.capstan.kube.ObjectRef;
import io.fabric8.kubernetes.api.model.Condition;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class KustomizationStatusesTest {
  private static final Instant T0 = Instant.parse("2025-01-01T10:00:00Z");
  private static final Instant T1 = Instant.parse("2025-01-01T10:05:00Z");
  private static final String REV = "main@sha1:0123456789abcdef0123456789abcdef01234567";
  private static final Inventory INVENTORY =
      new Inventory(List.of(new InventoryEntry("apps_web_apps_Deployment", "v1")));

  private static Condition cond(KustomizationStatus status, String type) {
    return KustomizationStatuses.condition(status, type).orElse(null);
  }

  private static AggregateHealth health(ResourceHealth... healths) {
    return Aggregation.of(List.of(healths));
  }

  private static ResourceHealth object(String kind, String name, Status status, String message) {
    return new ResourceHealth(
        ObjectRef.of("v1", kind, "apps", name), new ResourceStatus(status, "", message));
  }

  private static KustomizationStatus succeeded() {
    return KustomizationStatuses.next(
        null,
        Observation.of(3, T0, new Phase.Succeeded(REV))
            .withAttemptedRevision(REV)
            .withInventory(INVENTORY)
            .withHealth(health(object("Deployment", "web", Status.Current, ""))));
  }

  @Test
  void aLongFailureMessageIsCutToTheConditionBound() {
    String longMessage = "Deployment/apps/web: denied ".repeat(1000);
    KustomizationStatus status =
        KustomizationStatuses.next(
            succeeded(),
            Observation.of(4, T1, new Phase.Failed(Reason.APPLY_FAILED, longMessage, false)));
    String message = cond(status, READY).getMessage();
    assertEquals(ConditionMessages.MAX_LENGTH, message.length());
    assertTrue(
        message.endsWith("...")
            && longMessage.startsWith(message.substring(0, message.length() - 3)));
  }

  @Test
  void aSuccessWithAWarningSaysItOnTheReadyCondition() {
    KustomizationStatus status =
        KustomizationStatuses.next(
            null,
            Observation.of(
                3,
                T0,
                new Phase.Succeeded(REV, "built without the kernel's sandbox (no Landlock)")));
    assertEquals("True", cond(status, READY).getStatus());
    assertEquals(
        "Applied revision: " + REV + "; built without the kernel's sandbox (no Landlock)",
        cond(status, READY).getMessage());
  }

  @Test
  void successIsReadyWithTheAppliedRevision() {
    KustomizationStatus status = succeeded();
    assertEquals("True", cond(status, READY).getStatus());
    assertEquals("ReconciliationSucceeded", cond(status, READY).getReason());
    assertEquals("Applied revision: " + REV, cond(status, READY).getMessage());
    assertEquals(REV, status.lastAppliedRevision());
    assertEquals(REV, status.lastAttemptedRevision());
    assertEquals(3L, status.observedGeneration());
    assertEquals(INVENTORY, status.inventory());
    assertEquals("True", cond(status, HEALTHY).getStatus());
    assertEquals("1 object is healthy", cond(status, HEALTHY).getMessage());
    assertNull(cond(status, RECONCILING));
    assertNull(cond(status, STALLED));
  }

  @Test
  void healthyNamesACronJobWhoseLastJobFailed() {
    ResourceHealth cronJob =
        new ResourceHealth(
            ObjectRef.of("batch/v1", "CronJob", "apps", "backup"),
            ResourceStatus.currentWithNote("LastJobFailed", "its last Job did not succeed"));
    KustomizationStatus status =
        KustomizationStatuses.next(
            null,
            Observation.of(3, T0, new Phase.Succeeded(REV))
                .withAttemptedRevision(REV)
                .withHealth(health(object("Deployment", "web", Status.Current, ""), cronJob)));
    assertEquals("True", cond(status, HEALTHY).getStatus());
    assertEquals(
        "2 objects are healthy; CronJob/apps/backup: its last Job did not succeed (LastJobFailed)",
        cond(status, HEALTHY).getMessage());
  }

  @Test
  void progressingKeepsTheObservedGenerationAndAppliedRevision() {
    KustomizationStatus status =
        KustomizationStatuses.next(
            succeeded(),
            Observation.of(4, T1, new Phase.Progressing("Reconciliation in progress")));
    assertEquals("Unknown", cond(status, READY).getStatus());
    assertEquals("Progressing", cond(status, READY).getReason());
    assertEquals("True", cond(status, RECONCILING).getStatus());
    assertEquals(3L, status.observedGeneration());
    assertEquals(REV, status.lastAppliedRevision());
    assertEquals("True", cond(status, HEALTHY).getStatus(), "health is kept while progressing");
  }

  @Test
  void transientFailureRetriesWithoutStalling() {
    KustomizationStatus status =
        KustomizationStatuses.next(
            succeeded(),
            Observation.of(
                    4,
                    T1,
                    new Phase.Failed(Reason.APPLY_FAILED, "Deployment/apps/web: denied", false))
                .withAttemptedRevision("main@sha1:ffff"));
    assertEquals("False", cond(status, READY).getStatus());
    assertEquals("ApplyFailed", cond(status, READY).getReason());
    assertEquals("ProgressingWithRetry", cond(status, RECONCILING).getReason());
    assertNull(cond(status, STALLED));
    assertEquals(REV, status.lastAppliedRevision(), "applied revision stays the last good one");
    assertEquals("main@sha1:ffff", status.lastAttemptedRevision());
    assertEquals(4L, status.observedGeneration());
  }

  @Test
  void terminalFailureStallsAndStopsReconciling() {
    KustomizationStatus status =
        KustomizationStatuses.next(
            null,
            Observation.of(
                1, T0, new Phase.Failed(Reason.INVALID_CEL_EXPRESSION, "bad expr", true)));
    assertEquals("True", cond(status, STALLED).getStatus());
    assertEquals("InvalidCELExpression", cond(status, STALLED).getReason());
    assertEquals("False", cond(status, READY).getStatus());
    assertNull(cond(status, RECONCILING));
  }

  @Test
  void deployFailuresMakeTheAppUnhealthyButDependencyWaitsDoNot() {
    for (Reason reason :
        List.of(Reason.ARTIFACT_FAILED, Reason.BUILD_FAILED, Reason.APPLY_FAILED)) {
      KustomizationStatus status =
          KustomizationStatuses.next(
              succeeded(), Observation.of(4, T1, new Phase.Failed(reason, "boom", false)));
      assertEquals("False", cond(status, HEALTHY).getStatus(), reason.name());
      assertEquals(reason.text(), cond(status, HEALTHY).getReason());
    }
    KustomizationStatus waiting =
        KustomizationStatuses.next(
            succeeded(),
            Observation.of(
                4,
                T1,
                new Phase.Waiting(Reason.DEPENDENCY_NOT_READY, "dependency 'a/b' is not ready")));
    assertEquals("True", cond(waiting, HEALTHY).getStatus());
    assertEquals("DependencyNotReady", cond(waiting, READY).getReason());
    assertEquals("False", cond(waiting, READY).getStatus());
    assertNull(cond(waiting, STALLED));
  }

  @Test
  void failedObjectsAreNamedInLexicographicOrder() {
    AggregateHealth aggregate =
        health(
            object("Deployment", "zeta", Status.Failed, "Progress deadline exceeded"),
            object("ConfigMap", "cfg", Status.Current, ""),
            object("Deployment", "alpha", Status.InProgress, "Updated: 0/1"));
    KustomizationStatus status =
        KustomizationStatuses.next(
            null,
            Observation.of(
                    1, T0, new Phase.Failed(Reason.HEALTH_CHECK_FAILED, aggregate.message(), false))
                .withHealth(aggregate));
    String message = cond(status, HEALTHY).getMessage();
    assertEquals("False", cond(status, HEALTHY).getStatus());
    assertTrue(
        message.indexOf("Deployment/apps/alpha") < message.indexOf("Deployment/apps/zeta"),
        message);
    assertTrue(!message.contains("ConfigMap"), message);
  }

  @Test
  void aClusterScopedObjectIsNamedKindSlashNameInTheHealthyAndReadyMessages() {
    AggregateHealth aggregate =
        health(
            new ResourceHealth(
                ObjectRef.of("v1", "Namespace", "", "shop"),
                new ResourceStatus(Status.Failed, "", "stuck")));
    KustomizationStatus status =
        KustomizationStatuses.next(
            null,
            Observation.of(
                    1, T0, new Phase.Failed(Reason.HEALTH_CHECK_FAILED, aggregate.message(), false))
                .withHealth(aggregate));
    for (String type : List.of(HEALTHY, READY)) {
      String message = cond(status, type).getMessage();
      assertTrue(message.contains("Namespace/shop is Failed: stuck"), type + ": " + message);
      assertTrue(!message.contains("Namespace//shop"), type + ": " + message);
    }
  }

  @Test
  void inProgressHealthIsUnknownAndMissingObjectsAreUnhealthy() {
    KustomizationStatus progressing =
        KustomizationStatuses.withHealth(
            succeeded(), health(object("Deployment", "web", Status.InProgress, "rolling")), 3, T1);
    assertEquals("Unknown", cond(progressing, HEALTHY).getStatus());
    KustomizationStatus missing =
        KustomizationStatuses.withHealth(
            succeeded(), health(object("Deployment", "web", Status.NotFound, "gone")), 3, T1);
    assertEquals("False", cond(missing, HEALTHY).getStatus());
  }

  @Test
  void transitionTimeIsKeptWhileTheStatusStaysTheSame() {
    KustomizationStatus first = succeeded();
    KustomizationStatus again =
        KustomizationStatuses.next(
            first, Observation.of(3, T1, new Phase.Succeeded(REV)).withHealth(health()));
    assertEquals("2025-01-01T10:00:00Z", cond(again, READY).getLastTransitionTime());
    KustomizationStatus failed =
        KustomizationStatuses.next(
            again, Observation.of(3, T1, new Phase.Failed(Reason.BUILD_FAILED, "x", true)));
    assertEquals("2025-01-01T10:05:00Z", cond(failed, READY).getLastTransitionTime());
  }

  @Test
  void theHealthyMessageNamesTheRuleThatDecidedAnUnhealthyObject() {
    HealthEvaluator evaluator =
        HealthEvaluator.create(List.of(), BuiltinLibrary.none(), Clock.systemUTC());
    Map<String, Object> widget =
        Map.of(
            "apiVersion",
            "example.com/v1",
            "kind",
            "Widget",
            "metadata",
            Map.of("namespace", "apps", "name", "gear"),
            "status",
            Map.of("phase", "Provisioning"));
    KustomizationStatus after =
        KustomizationStatuses.withHealth(succeeded(), evaluator.aggregate(List.of(widget)), 3, T1);
    assertEquals("Unknown", cond(after, HEALTHY).getStatus());
    assertEquals(
        "Widget/apps/gear is InProgress: status.phase is 'Provisioning' (PhaseProgressing)"
            + " [decided by generic status vocabulary]",
        cond(after, HEALTHY).getMessage());
  }

  @Test
  void withHealthChangesOnlyTheHealthyCondition() {
    KustomizationStatus before = succeeded();
    KustomizationStatus after =
        KustomizationStatuses.withHealth(
            before,
            health(object("Deployment", "web", Status.Failed, "Progress deadline exceeded")),
            3,
            T1);
    assertEquals(cond(before, READY), cond(after, READY));
    assertEquals("False", cond(after, HEALTHY).getStatus());
    assertEquals("HealthCheckFailed", cond(after, HEALTHY).getReason());
    assertTrue(cond(after, HEALTHY).getMessage().contains("Deployment/apps/web is Failed"));
    assertEquals(before.inventory(), after.inventory());
    assertEquals(before.lastAppliedRevision(), after.lastAppliedRevision());
    KustomizationStatus recovered =
        KustomizationStatuses.withHealth(
            after, health(object("Deployment", "web", Status.Current, "")), 3, T1);
    assertEquals("True", cond(recovered, HEALTHY).getStatus());
  }

  @Test
  void withHealthAddsTheConditionWhenAbsent() {
    KustomizationStatus status =
        KustomizationStatuses.withHealth(
            null, health(object("Pod", "p", Status.Current, "")), 1, T0);
    assertEquals("True", cond(status, HEALTHY).getStatus());
    assertEquals(1, status.conditions().size());
  }

  @Test
  void requestedAtIsEchoedAndKept() {
    KustomizationStatus handled =
        KustomizationStatuses.next(
            null,
            Observation.of(1, T0, new Phase.Succeeded(REV))
                .withHandledRequestedAt("2025-01-01T09:59:00Z"));
    assertEquals("2025-01-01T09:59:00Z", handled.lastHandledReconcileAt());
    KustomizationStatus later =
        KustomizationStatuses.next(handled, Observation.of(1, T1, new Phase.Succeeded(REV)));
    assertEquals("2025-01-01T09:59:00Z", later.lastHandledReconcileAt());
  }

  @Test
  void conditionsCarryTheGenerationTheyDescribe() {
    KustomizationStatus status = succeeded();
    for (Condition c : status.conditions()) {
      assertEquals(3L, c.getObservedGeneration(), c.getType());
    }
    assertEquals(Optional.empty(), KustomizationStatuses.condition(null, READY));
  }

  @Test
  void stalledGoesAwayOnSuccess() {
    KustomizationStatus stalled =
        KustomizationStatuses.next(
            null, Observation.of(1, T0, new Phase.Failed(Reason.DEPENDENCY_CYCLE, "cycle", true)));
    KustomizationStatus fixed =
        KustomizationStatuses.next(stalled, Observation.of(2, T1, new Phase.Succeeded(REV)));
    assertNull(cond(fixed, STALLED));
    assertEquals("True", cond(fixed, READY).getStatus());
  }

  // ---- drift ----------------------------------------------------------------------------------

  private static final Drift TWO_DRIFTED =
      Drift.reported(
          List.of(
              new Drift.DriftedObject(
                  "Deployment/apps/web",
                  "changed in the cluster: ...",
                  List.of("/spec/replicas", "/spec/template/spec/containers/0/image")),
              new Drift.DriftedObject(
                  "ConfigMap/apps/settings", "deleted from the cluster", List.of())));

  @Test
  void driftReportedNamesTheObjectsInOrderAndTheirFields() {
    KustomizationStatus drifted =
        KustomizationStatuses.next(
            succeeded(), Observation.of(3, T1, new Phase.Succeeded(REV)).withDrift(TWO_DRIFTED));
    Condition condition = cond(drifted, ConditionTypes.DRIFTED);
    assertEquals("True", condition.getStatus());
    assertEquals("DriftDetected", condition.getReason());
    assertEquals(
        "2 objects drifted: ConfigMap/apps/settings: deleted from the cluster;"
            + " Deployment/apps/web: /spec/replicas, /spec/template/spec/containers/0/image",
        condition.getMessage());
    assertEquals("True", cond(drifted, READY).getStatus(), "drift reported is no failure");
  }

  @Test
  void driftIsKeptUntilAnApplyRunsToItsEndAndGoesAwayOutsideWarnMode() {
    KustomizationStatus drifted =
        KustomizationStatuses.next(
            succeeded(), Observation.of(3, T1, new Phase.Succeeded(REV)).withDrift(TWO_DRIFTED));
    KustomizationStatus waiting =
        KustomizationStatuses.next(
            drifted, Observation.of(3, T1, new Phase.Progressing("Reconciliation in progress")));
    assertEquals("True", cond(waiting, ConditionTypes.DRIFTED).getStatus());
    KustomizationStatus clean =
        KustomizationStatuses.next(
            waiting,
            Observation.of(3, T1, new Phase.Succeeded(REV)).withDrift(Drift.reported(List.of())));
    assertEquals("False", cond(clean, ConditionTypes.DRIFTED).getStatus());
    assertEquals("No drift detected", cond(clean, ConditionTypes.DRIFTED).getMessage());
    KustomizationStatus corrected =
        KustomizationStatuses.next(
            clean, Observation.of(4, T1, new Phase.Succeeded(REV)).withDrift(Drift.NOT_REPORTED));
    assertNull(cond(corrected, ConditionTypes.DRIFTED));
  }

  @Test
  void theDriftMessageIsBoundedInObjectsAndFields() {
    List<Drift.DriftedObject> many =
        IntStream.range(0, 12)
            .mapToObj(
                i ->
                    new Drift.DriftedObject(
                        "ConfigMap/apps/c" + (char) ('a' + i),
                        "",
                        IntStream.range(0, 7).mapToObj(f -> "/data/k" + f).toList()))
            .toList();
    String message = Drift.reported(many).message();
    assertTrue(message.startsWith("12 objects drifted: ConfigMap/apps/ca: /data/k0,"), message);
    assertTrue(message.contains("/data/k4 and 2 more; ConfigMap/apps/cb"), message);
    assertTrue(message.endsWith("; and 2 more objects"), message);
  }

  @Test
  void aReconcileThatBuiltAndEndedIsCountedInTheHistoryWithItsOriginRevision() {
    Observation.Reconciled built =
        new Observation.Reconciled("sha256:abc", Duration.ofSeconds(3), REV, "v1.2.3@sha1:feed");
    KustomizationStatus status =
        KustomizationStatuses.next(
            null,
            Observation.of(3, T0, new Phase.Succeeded(REV))
                .withAttemptedRevision(REV)
                .withReconciled(built));

    assertEquals("v1.2.3@sha1:feed", status.lastAppliedOriginRevision());
    assertEquals(1, status.history().size());
    var entry = status.history().get(0);
    assertEquals("sha256:abc", entry.digest());
    assertEquals("ReconciliationSucceeded", entry.lastReconciledStatus());
    assertEquals("3s", entry.lastReconciledDuration());
    assertEquals(Map.of("revision", REV, "originRevision", "v1.2.3@sha1:feed"), entry.metadata());
  }

  @Test
  void aFailureAfterTheBuildIsCountedUnderItsReasonAndKeepsTheAppliedOriginRevision() {
    Observation.Reconciled first =
        new Observation.Reconciled("sha256:abc", Duration.ofSeconds(3), REV, "o1");
    KustomizationStatus applied =
        KustomizationStatuses.next(
            null, Observation.of(3, T0, new Phase.Succeeded(REV)).withReconciled(first));
    Observation.Reconciled second =
        new Observation.Reconciled("sha256:def", Duration.ofMinutes(5), "next", "o2");

    KustomizationStatus failed =
        KustomizationStatuses.next(
            applied,
            Observation.of(4, T1, new Phase.Failed(Reason.HEALTH_CHECK_FAILED, "timeout", false))
                .withReconciled(second));

    assertEquals("o1", failed.lastAppliedOriginRevision());
    assertEquals(
        List.of("HealthCheckFailed", "ReconciliationSucceeded"),
        failed.history().stream().map(h -> h.lastReconciledStatus()).toList());
  }

  @Test
  void progressAndFailuresBeforeTheBuildLeaveTheHistoryAlone() {
    KustomizationStatus applied =
        KustomizationStatuses.next(
            null,
            Observation.of(3, T0, new Phase.Succeeded(REV))
                .withReconciled(
                    new Observation.Reconciled("sha256:abc", Duration.ofSeconds(1), REV, null)));

    KustomizationStatus progressing =
        KustomizationStatuses.next(
            applied,
            Observation.of(4, T1, new Phase.Progressing("waiting"))
                .withReconciled(
                    new Observation.Reconciled("sha256:new", Duration.ofSeconds(1), "x", null)));
    KustomizationStatus buildFailed =
        KustomizationStatuses.next(
            progressing, Observation.of(5, T1, new Phase.Failed(Reason.BUILD_FAILED, "bad", true)));

    assertEquals(applied.history(), progressing.history());
    assertEquals(applied.history(), buildFailed.history());
    assertNull(applied.lastAppliedOriginRevision());
  }
}
