package dev.capstan.engine.conditions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.api.helm.HelmReleaseStatus;
import dev.capstan.api.helm.HelmReleaseStatus.ReleaseAction;
import dev.capstan.api.helm.ReleaseSnapshot;
import dev.capstan.api.kustomize.Inventory;
import dev.capstan.engine.conditions.ReleaseObservation.Attempted;
import dev.capstan.engine.conditions.ReleaseObservation.HealthState;
import dev.capstan.health.AggregateHealth;
import dev.capstan.health.status.Status;
import io.fabric8.kubernetes.api.model.Condition;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HelmReleaseStatusesTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final Attempted V1 =
      new Attempted("6.5.0", "sha256:a", "sha256:v", "c", ReleaseAction.install, null);

  @Test
  void aDeployedReleaseWithHealthyObjectsIsReadyReleasedAndHealthy() {
    HelmReleaseStatus status =
        HelmReleaseStatuses.next(
            null, released(snapshot(1, "deployed"), HealthState.CURRENT, Status.Current).build());

    assertCondition(status, "Ready", "True", "InstallSucceeded", "installed");
    assertCondition(status, "Released", "True", "InstallSucceeded", "installed");
    assertCondition(status, "Healthy", "True", "Healthy", "3 objects of the release are healthy");
    assertEquals(1, status.lastReleaseRevision());
    assertEquals(1L, status.observedGeneration());
  }

  @Test
  void objectsInProgressLeaveReadyUnknownAndTheirTimeoutMakesItFalse() {
    HelmReleaseStatus waiting =
        HelmReleaseStatuses.next(
            null,
            released(snapshot(1, "deployed"), HealthState.IN_PROGRESS, Status.InProgress).build());
    assertCondition(
        waiting, "Ready", "Unknown", "Progressing", "installed; waiting for: not ready");
    assertCondition(waiting, "Healthy", "Unknown", "Progressing", "not ready");

    HelmReleaseStatus late =
        HelmReleaseStatuses.next(
            waiting,
            base()
                .phase(new ReleaseObservation.Unchanged())
                .health(health(Status.InProgress))
                .healthState(HealthState.TIMED_OUT)
                .build());
    assertCondition(late, "Ready", "False", "HealthCheckFailed", "timeout waiting for: not ready");
    assertCondition(late, "Released", "True", "InstallSucceeded", "installed");
  }

  @Test
  void aWaitingSourceKeepsReleasedAndHealthy() {
    HelmReleaseStatus ready =
        HelmReleaseStatuses.next(
            null, released(snapshot(1, "deployed"), HealthState.CURRENT, Status.Current).build());

    HelmReleaseStatus waiting =
        HelmReleaseStatuses.next(
            ready,
            base()
                .attempted(null)
                .phase(
                    new ReleaseObservation.Waiting(
                        ReleaseReason.SOURCE_NOT_READY, "HelmChart 'a/b' is not ready"))
                .build());

    assertCondition(waiting, "Ready", "False", "SourceNotReady", "HelmChart 'a/b' is not ready");
    assertCondition(waiting, "Released", "True", "InstallSucceeded", "installed");
    assertEquals(condition(ready, "Healthy"), condition(waiting, "Healthy"));
    assertEquals(ready.history(), waiting.history());
    assertNull(waiting.failures());
  }

  @Test
  void failuresCountForTheSameInputsAndStartAgainWithNewOnes() {
    ReleaseObservation failure =
        base()
            .released(snapshot(1, "failed"))
            .phase(
                new ReleaseObservation.Failed(ReleaseReason.INSTALL_FAILED, "install failed", true))
            .build();
    HelmReleaseStatus once = HelmReleaseStatuses.next(null, failure);
    HelmReleaseStatus twice = HelmReleaseStatuses.next(once, failure);
    assertEquals(2L, twice.failures());
    assertEquals(2L, twice.installFailures());
    assertNull(twice.upgradeFailures());
    assertCondition(twice, "Released", "False", "InstallFailed", "install failed");

    HelmReleaseStatus newValues =
        HelmReleaseStatuses.next(
            twice,
            failure.withAttempted(
                new Attempted("6.5.0", "sha256:a", "sha256:w", "d", ReleaseAction.install, null)));
    assertEquals(1L, newValues.failures());
  }

  @Test
  void theHistoryKeepsSnapshotsUpToTheLastSuccessfulRelease() {
    List<ReleaseSnapshot> history = new ArrayList<>();
    history.add(snapshot(3, "failed"));
    history.add(snapshot(2, "deployed"));
    history.add(snapshot(1, "superseded"));

    List<ReleaseSnapshot> next = HelmReleaseStatuses.history(history, snapshot(4, "deployed"), 5);

    assertEquals(
        List.of("4 deployed", "3 failed", "2 superseded"),
        next.stream().map(s -> s.version() + " " + s.status()).toList());
    assertEquals(
        List.of("4 deployed", "3 failed"),
        HelmReleaseStatuses.history(history, snapshot(4, "deployed"), 2).stream()
            .map(s -> s.version() + " " + s.status())
            .toList());
  }

  @Test
  void aVersionsSnapshotWrittenAgainKeepsTheOciDigestAndTestsOfTheOneItReplaces() {
    ReleaseSnapshot tested =
        snapshot(2, "deployed")
            .withOciDigest("sha256:" + "a".repeat(64))
            .withTestHooks(Map.of("t", new ReleaseSnapshot.TestHookStatus("s", "c", "Succeeded")));
    List<ReleaseSnapshot> history = List.of(tested, snapshot(1, "superseded"));

    List<ReleaseSnapshot> next = HelmReleaseStatuses.history(history, snapshot(2, "failed"), 5);

    assertEquals("failed", next.get(0).status());
    assertEquals(tested.ociDigest(), next.get(0).ociDigest());
    assertEquals(tested.testHooks(), next.get(0).testHooks());
    ReleaseSnapshot other = snapshot(2, "failed").withOciDigest("sha256:" + "b".repeat(64));
    assertEquals(
        other.ociDigest(),
        HelmReleaseStatuses.history(history, other, 5).get(0).ociDigest(),
        "a digest of its own stands");
  }

  @Test
  void aFailedWaitFailsTheReleaseAndCountsForItsAction() {
    HelmReleaseStatus waiting =
        HelmReleaseStatuses.next(
            null,
            released(snapshot(1, "deployed"), HealthState.IN_PROGRESS, Status.InProgress).build());

    HelmReleaseStatus failed =
        HelmReleaseStatuses.next(
            waiting,
            base()
                .released(snapshot(1, "failed"))
                .phase(
                    new ReleaseObservation.WaitFailed(
                        ReleaseReason.INSTALL_FAILED, "install failed: timeout waiting for: x"))
                .health(health(Status.InProgress))
                .healthState(HealthState.TIMED_OUT)
                .build());

    assertCondition(
        failed, "Ready", "False", "HealthCheckFailed", "install failed: timeout waiting for: x");
    assertCondition(
        failed, "Released", "False", "InstallFailed", "install failed: timeout waiting for: x");
    assertCondition(failed, "Healthy", "False", "HealthCheckFailed", "not ready");
    assertEquals(1L, failed.failures());
    assertEquals(1L, failed.installFailures());
    assertEquals(List.of("1 failed"), versions(failed));
  }

  @Test
  void aRemediationSetsRemediatedAndReadyAndOnlyAFailedOneCounts() {
    HelmReleaseStatus failed =
        HelmReleaseStatuses.next(
            null,
            base()
                .released(snapshot(2, "failed"))
                .phase(new ReleaseObservation.Failed(ReleaseReason.UPGRADE_FAILED, "upgrade", true))
                .build());

    HelmReleaseStatus rolledBack =
        HelmReleaseStatuses.next(
            failed,
            base()
                .released(snapshot(3, "deployed"))
                .phase(
                    new ReleaseObservation.Remediated(
                        ReleaseReason.ROLLBACK_SUCCEEDED, "rolled back", true))
                .build());
    assertCondition(rolledBack, "Remediated", "True", "RollbackSucceeded", "rolled back");
    assertCondition(rolledBack, "Ready", "False", "RollbackSucceeded", "rolled back");
    assertCondition(rolledBack, "Released", "False", "UpgradeFailed", "upgrade");
    assertEquals(1L, rolledBack.failures());

    HelmReleaseStatus notRolledBack =
        HelmReleaseStatuses.next(
            failed,
            base()
                .phase(
                    new ReleaseObservation.Remediated(
                        ReleaseReason.ROLLBACK_FAILED, "not rolled back", false))
                .build());
    assertCondition(notRolledBack, "Remediated", "False", "RollbackFailed", "not rolled back");
    assertEquals(2L, notRolledBack.failures());
  }

  @Test
  void aReleaseUninstalledForANewTargetForgetsItsHistoryFailuresAndStorage() {
    HelmReleaseStatus failing =
        HelmReleaseStatuses.next(
            HelmReleaseStatuses.next(
                null,
                released(snapshot(1, "deployed"), HealthState.CURRENT, Status.Current).build()),
            base()
                .released(snapshot(2, "failed"))
                .phase(new ReleaseObservation.Failed(ReleaseReason.UPGRADE_FAILED, "upgrade", true))
                .build());
    assertEquals(List.of("2 failed", "1 deployed"), versions(failing));
    assertEquals(1L, failing.failures());
    assertEquals(1L, failing.installFailures());

    HelmReleaseStatus moved =
        HelmReleaseStatuses.next(
            failing,
            base()
                .attempted(null)
                .storageNamespace(null)
                .inventory(new Inventory(List.of()))
                .phase(new ReleaseObservation.Retargeted("uninstalled apps/podinfo.v2"))
                .build());

    assertNull(moved.history());
    assertNull(moved.failures());
    assertNull(moved.installFailures());
    assertNull(moved.storageNamespace());
    assertEquals(List.of(), moved.inventory().entries());
    assertCondition(moved, "Ready", "False", "UninstallSucceeded", "uninstalled apps/podinfo.v2");
    assertCondition(
        moved, "Released", "False", "UninstallSucceeded", "uninstalled apps/podinfo.v2");
    assertCondition(
        moved, "Healthy", "Unknown", "UninstallSucceeded", "uninstalled apps/podinfo.v2");
    assertEquals("6.5.0", moved.lastAttemptedRevision(), "what was last attempted stays");
  }

  @Test
  void aStallKeepsTheFailureInReadyAndASuccessfulReleaseClearsStalledAndRemediated() {
    HelmReleaseStatus rolledBack =
        HelmReleaseStatuses.next(
            null,
            base()
                .released(snapshot(3, "deployed"))
                .phase(
                    new ReleaseObservation.Remediated(
                        ReleaseReason.ROLLBACK_SUCCEEDED, "rolled back", true))
                .build());

    HelmReleaseStatus stalled =
        HelmReleaseStatuses.next(
            rolledBack,
            base()
                .phase(
                    new ReleaseObservation.Stalled(
                        ReleaseReason.RETRIES_EXCEEDED, "Failed to upgrade after 1 attempt(s)"))
                .build());
    assertCondition(
        stalled, "Stalled", "True", "RetriesExceeded", "Failed to upgrade after 1 attempt(s)");
    assertEquals(condition(rolledBack, "Ready"), condition(stalled, "Ready"));
    assertEquals(condition(rolledBack, "Remediated"), condition(stalled, "Remediated"));

    HelmReleaseStatus released =
        HelmReleaseStatuses.next(
            stalled,
            released(snapshot(4, "deployed"), HealthState.CURRENT, Status.Current)
                .generation(2)
                .build());
    assertCondition(released, "Ready", "True", "InstallSucceeded", "installed");
    assertTrue(HelmReleaseStatuses.condition(released, "Stalled").isEmpty());
    assertTrue(HelmReleaseStatuses.condition(released, "Remediated").isEmpty());
  }

  @Test
  void theCarriedCountersAreNoneForANewGeneration() {
    HelmReleaseStatus failed =
        HelmReleaseStatuses.next(
            null,
            base()
                .released(snapshot(1, "failed"))
                .phase(new ReleaseObservation.Failed(ReleaseReason.INSTALL_FAILED, "install", true))
                .build());

    assertEquals(
        new HelmReleaseStatuses.FailureCounts(1, 1, 0), HelmReleaseStatuses.carried(failed, 1, V1));
    assertEquals(
        new HelmReleaseStatuses.FailureCounts(0, 0, 0), HelmReleaseStatuses.carried(failed, 2, V1));
  }

  @Test
  void failuresBeforeAnyAttemptCountUpUntilTheGenerationChanges() {
    HelmReleaseStatus once = HelmReleaseStatuses.next(null, failedEarly(1));
    HelmReleaseStatus twice = HelmReleaseStatuses.next(once, failedEarly(1));
    HelmReleaseStatus newGeneration = HelmReleaseStatuses.next(twice, failedEarly(2));

    assertEquals(1L, once.failures());
    assertEquals(2L, twice.failures());
    assertNull(twice.installFailures(), "no install was attempted");
    assertEquals(1L, newGeneration.failures());
  }

  @Test
  void failuresBeforeAnyAttemptCountUpAfterAnEarlierGenerationWasAttempted() {
    HelmReleaseStatus installed =
        HelmReleaseStatuses.next(
            null, released(snapshot(1, "deployed"), HealthState.CURRENT, Status.Current).build());
    // spec.kubeConfig added (generation 2), its Secret missing: nothing is attempted, ever
    HelmReleaseStatus once = HelmReleaseStatuses.next(installed, failedEarly(2));
    HelmReleaseStatus twice = HelmReleaseStatuses.next(once, failedEarly(2));
    HelmReleaseStatus thrice = HelmReleaseStatuses.next(twice, failedEarly(2));

    assertEquals(1L, installed.lastAttemptedGeneration());
    assertEquals(1L, once.failures());
    assertEquals(2L, twice.failures());
    assertEquals(3L, thrice.failures());
    assertEquals(1L, thrice.lastAttemptedGeneration(), "nothing was attempted at generation 2");
    assertEquals(1L, HelmReleaseStatuses.next(thrice, failedEarly(3)).failures());
  }

  @Test
  void failuresBeforeAnAttemptLeaveTheInstallAndUpgradeCountersAlone() {
    HelmReleaseStatus failedUpgrade =
        HelmReleaseStatuses.next(
            null,
            base()
                .attempted(
                    new Attempted(
                        "6.5.0", "sha256:a", "sha256:v", "c", ReleaseAction.upgrade, null))
                .released(snapshot(2, "failed"))
                .phase(new ReleaseObservation.Failed(ReleaseReason.UPGRADE_FAILED, "upgrade", true))
                .build());
    HelmReleaseStatus early = HelmReleaseStatuses.next(failedUpgrade, failedEarly(1));
    HelmReleaseStatus upgradedAgain =
        HelmReleaseStatuses.next(
            early,
            base()
                .attempted(
                    new Attempted(
                        "6.5.0", "sha256:a", "sha256:v", "c", ReleaseAction.upgrade, null))
                .released(snapshot(3, "failed"))
                .phase(new ReleaseObservation.Failed(ReleaseReason.UPGRADE_FAILED, "upgrade", true))
                .build());

    assertEquals(1L, failedUpgrade.upgradeFailures());
    assertEquals(2L, early.failures());
    assertEquals(1L, early.upgradeFailures(), "no upgrade was attempted");
    assertNull(early.installFailures());
    assertEquals(
        new HelmReleaseStatuses.FailureCounts(2, 0, 1),
        HelmReleaseStatuses.carried(early, 1, lastAttemptedOf(early)));
    assertEquals(3L, upgradedAgain.failures());
    assertEquals(2L, upgradedAgain.upgradeFailures());
  }

  private static Attempted lastAttemptedOf(HelmReleaseStatus status) {
    return new Attempted(
        status.lastAttemptedRevision(),
        status.lastAttemptedRevisionDigest(),
        status.lastAttemptedConfigDigest(),
        status.lastAttemptedValuesChecksum(),
        status.lastAttemptedReleaseAction(),
        null);
  }

  /** A reconcile of {@code generation} that failed before anything was attempted. */
  private static ReleaseObservation failedEarly(long generation) {
    return ReleaseObservationBuilder.builder()
        .generation(generation)
        .now(T0)
        .storageNamespace("apps")
        .maxHistory(5)
        .phase(
            new ReleaseObservation.Failed(
                ReleaseReason.REST_CLIENT_ERROR, "Secret 'apps/remote' not found", false))
        .build();
  }

  private static List<String> versions(HelmReleaseStatus status) {
    return status.history().stream().map(s -> s.version() + " " + s.status()).toList();
  }

  @Test
  void driftReportedInWarnModeIsDriftedTrueNamingAtMostTenObjectsAndReadyStays() {
    HelmReleaseStatus ready =
        HelmReleaseStatuses.next(
            null, released(snapshot(1, "deployed"), HealthState.CURRENT, Status.Current).build());
    List<Drift.DriftedObject> drifted = new ArrayList<>();
    for (int i = 11; i >= 0; i--) {
      drifted.add(new Drift.DriftedObject("ConfigMap/apps/c" + i, "", List.of("/data/k")));
    }

    HelmReleaseStatus warned =
        HelmReleaseStatuses.next(
            ready, unchanged().drift(new ReleaseObservation.DriftReported(drifted)).build());

    Condition condition = condition(warned, "Drifted");
    assertEquals("True", condition.getStatus());
    assertEquals("DriftDetected", condition.getReason());
    assertTrue(
        condition.getMessage().startsWith("12 objects drifted: ConfigMap/apps/c0: /data/k;"));
    assertTrue(condition.getMessage().endsWith("; and 2 more objects"), condition.getMessage());
    assertEquals(condition(ready, "Ready"), condition(warned, "Ready"));
  }

  @Test
  void driftIsKeptWithoutALookAndGoneWhenDisabled() {
    HelmReleaseStatus ready =
        HelmReleaseStatuses.next(
            null, released(snapshot(1, "deployed"), HealthState.CURRENT, Status.Current).build());
    HelmReleaseStatus warned =
        HelmReleaseStatuses.next(
            ready,
            unchanged()
                .drift(
                    new ReleaseObservation.DriftReported(
                        List.of(
                            new Drift.DriftedObject(
                                "Service/apps/web", "deleted from the cluster", List.of()))))
                .build());
    assertCondition(
        warned,
        "Drifted",
        "True",
        "DriftDetected",
        "1 object drifted: Service/apps/web: deleted from the cluster");

    HelmReleaseStatus notLooked = HelmReleaseStatuses.next(warned, unchanged().build());
    assertEquals(condition(warned, "Drifted"), condition(notLooked, "Drifted"));

    HelmReleaseStatus disabled =
        HelmReleaseStatuses.next(
            warned, unchanged().drift(new ReleaseObservation.DriftOff()).build());
    assertTrue(HelmReleaseStatuses.condition(disabled, "Drifted").isEmpty());
  }

  @Test
  void driftCorrectedIsDriftedFalseAndAFailedCorrectionDriftedTrue() {
    Drift.DriftedObject web = new Drift.DriftedObject("Deployment/apps/web", "changed", List.of());
    HelmReleaseStatus corrected =
        HelmReleaseStatuses.next(
            null,
            unchanged()
                .drift(new ReleaseObservation.DriftCorrected(List.of(web), List.of()))
                .build());
    assertCondition(
        corrected,
        "Drifted",
        "False",
        "DriftCorrected",
        "corrected: 1 object drifted: Deployment/apps/web: changed");

    HelmReleaseStatus failed =
        HelmReleaseStatuses.next(
            corrected,
            unchanged()
                .drift(new ReleaseObservation.DriftCorrected(List.of(), List.of(web)))
                .build());
    assertCondition(
        failed,
        "Drifted",
        "True",
        "DriftCorrectionFailed",
        "not corrected: 1 object drifted: Deployment/apps/web: changed");
    assertEquals("True", condition(failed, "Ready").getStatus());
  }

  private static ReleaseObservationBuilder unchanged() {
    return base()
        .phase(new ReleaseObservation.Unchanged())
        .health(health(Status.Current))
        .healthState(HealthState.CURRENT);
  }

  private static ReleaseObservationBuilder base() {
    return ReleaseObservationBuilder.builder()
        .generation(1)
        .now(T0)
        .attempted(V1)
        .storageNamespace("apps")
        .maxHistory(5);
  }

  private static ReleaseObservationBuilder released(
      ReleaseSnapshot snapshot, HealthState state, Status health) {
    return base()
        .released(snapshot)
        .phase(new ReleaseObservation.Released(ReleaseReason.INSTALL_SUCCEEDED, "installed"))
        .health(health(health))
        .healthState(state);
  }

  private static AggregateHealth health(Status status) {
    return new AggregateHealth(
        status, status == Status.Current ? "" : "not ready", List.of(), List.of(), 3);
  }

  private static ReleaseSnapshot snapshot(int version, String status) {
    return new ReleaseSnapshot(
        null,
        "sha256:r" + version,
        "podinfo",
        "apps",
        version,
        status,
        "install",
        "podinfo",
        "6.5.0",
        "6.5.0",
        "sha256:v",
        "2026-01-01T00:00:00Z",
        "2026-01-01T00:00:00Z",
        null,
        null,
        null);
  }

  private static void assertCondition(
      HelmReleaseStatus status, String type, String value, String reason, String message) {
    Condition condition = condition(status, type);
    assertEquals(
        List.of(value, reason, message),
        List.of(condition.getStatus(), condition.getReason(), condition.getMessage()));
  }

  private static Condition condition(HelmReleaseStatus status, String type) {
    return HelmReleaseStatuses.condition(status, type).orElseThrow();
  }
}
