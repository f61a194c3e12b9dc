package dev.capstan.engine.helmrelease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.capstan.api.helm.HelmRelease;
import dev.capstan.api.helm.HelmReleaseSpec;
import dev.capstan.api.helm.HelmReleaseStatus;
import dev.capstan.engine.conditions.HelmReleaseStatuses;
import dev.capstan.engine.pipeline.Outcome;
import dev.capstan.health.status.Status;
import dev.capstan.helm.release.Release;
import dev.capstan.helm.release.ReleaseRecord;
import io.fabric8.kubernetes.api.model.Condition;
import java.io.IOException;
import java.time.Duration;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Failed installs and upgrades, and their remediation as Flux's helm-controller does it: a wait
 * that ends unhealthy fails the release, which is rolled back or uninstalled while retries remain
 * and stalls after them until the spec changes.
 */
class ReleaseRemediationTest {
  private final ReleaseFakes fakes = new ReleaseFakes();
  private final HelmReleasePipeline pipeline = fakes.pipeline();

  @Test
  void aWaitPastTheTimeoutFailsTheUpgradeAndRestoresTheReleaseItReplaced() throws IOException {
    HelmRelease release = installedThenUpgradedUnhealthy("{\"remediation\":{\"retries\":1}}");

    fakes.now = fakes.now.plus(Duration.ofMinutes(6));
    Outcome late = pipeline.reconcile(release);

    assertEquals(Outcome.Kind.TRANSIENT, late.kind());
    assertEquals("1 deployed, 2 failed", records());
    assertEquals(
        "Upgrade \"podinfo\" failed: timeout waiting for: Deployment/apps/podinfo: 0 of 1"
            + " replicas ready",
        description(2));
    HelmReleaseStatus status = release.getStatus();
    assertCondition(status, "Released", "False", "UpgradeFailed");
    assertCondition(status, "Ready", "False", "HealthCheckFailed");
    assertEquals(
        "Helm upgrade failed for release apps/podinfo.v2 with chart podinfo@6.5.0: timeout"
            + " waiting for: Deployment/apps/podinfo: 0 of 1 replicas ready",
        condition(status, "Released").getMessage());
    assertEquals(1L, status.upgradeFailures());
    assertEquals(1L, status.failures());
    assertNull(status.installFailures());
    assertEquals("failed", status.latest().status());
    assertEveryConfigDigest(status);
  }

  @Test
  void aWaitingReconcileInsideTheWaitLeavesItPendingAndItsTimeoutFailsTheUpgrade()
      throws IOException {
    HelmRelease release = installedThenUpgradedUnhealthy("{\"remediation\":{\"retries\":1}}");
    fakes.sourceReady = false;
    pipeline.reconcile(release);
    assertCondition(release.getStatus(), "Ready", "False", "SourceNotReady");
    fakes.sourceReady = true;

    fakes.now = fakes.now.plus(Duration.ofMinutes(6));
    pipeline.reconcile(release);

    assertEquals("1 deployed, 2 failed", records());
    assertCondition(release.getStatus(), "Released", "False", "UpgradeFailed");
    assertEquals(1L, release.getStatus().upgradeFailures());
  }

  @Test
  void aRefusedRedeployOfTheReplacedReleaseLeavesTheWaitToFailAgainThenRollsBack()
      throws IOException {
    HelmRelease release = installedThenUpgradedUnhealthy("{\"remediation\":{\"retries\":1}}");
    fakes.now = fakes.now.plus(Duration.ofMinutes(6));
    fakes.redeployRefusals = 1;

    pipeline.reconcile(release);
    assertEquals("1 superseded, 2 deployed", records());

    pipeline.reconcile(release);
    assertEquals("1 deployed, 2 failed", records());
    pipeline.reconcile(release);
    assertEquals("1 superseded, 2 failed, 3 deployed", records());
    assertCondition(release.getStatus(), "Remediated", "True", "RollbackSucceeded");
  }

  @Test
  void aFailedInstallWaitRedeploysNoOlderRecord() throws IOException {
    HelmRelease release = ReleaseFakes.release();
    update(
        release,
        "{\"uninstall\":{\"keepHistory\":true},"
            + "\"upgrade\":{\"remediation\":{\"retries\":1,\"strategy\":\"uninstall\"}}}");
    pipeline.reconcile(release);
    release.getMetadata().setGeneration(2L);
    update(release, "{\"values\":{\"replicaCount\":3}}");
    fakes.health = Status.InProgress;
    pipeline.reconcile(release);
    fakes.now = fakes.now.plus(Duration.ofMinutes(6));
    pipeline.reconcile(release); // version 2's wait failed, version 1 deployed again
    pipeline.reconcile(release); // uninstalled, its history kept
    pipeline.reconcile(release); // installed as version 3, which supersedes version 1
    assertEquals("1 superseded, 2 uninstalled, 3 deployed", records());

    fakes.now = fakes.now.plus(Duration.ofMinutes(6));
    pipeline.reconcile(release);

    assertEquals("1 superseded, 2 uninstalled, 3 failed", records());
    assertCondition(release.getStatus(), "Released", "False", "InstallFailed");
  }

  @Test
  void aRemediationsSnapshotNamesItsActionAsFluxDoes() throws IOException {
    HelmRelease upgraded = installedThenUpgradedUnhealthy("{\"remediation\":{\"retries\":1}}");
    fakes.now = fakes.now.plus(Duration.ofMinutes(6));
    pipeline.reconcile(upgraded);
    pipeline.reconcile(upgraded);
    assertEquals("rollback", upgraded.getStatus().latest().action());

    ReleaseFakes other = new ReleaseFakes();
    HelmReleasePipeline installs = other.pipeline();
    HelmRelease installed = ReleaseFakes.release();
    update(installed, "{\"install\":{\"remediation\":{\"retries\":1}}}");
    other.health = Status.Failed;
    installs.reconcile(installed);
    installs.reconcile(installed);
    assertCondition(installed.getStatus(), "Remediated", "True", "UninstallSucceeded");
    assertEquals("uninstall-remediation", installed.getStatus().latest().action());
  }

  @Test
  void aFailedUpgradeIsRolledBackToTheLastDeployedManifestPruningWhatItAdded() throws IOException {
    HelmRelease release = installedThenUpgradedUnhealthy("{\"remediation\":{\"retries\":1}}");
    fakes.now = fakes.now.plus(Duration.ofMinutes(6));
    pipeline.reconcile(release);
    int renders = fakes.renders;

    Outcome rolledBack = pipeline.reconcile(release);

    assertEquals(Outcome.Kind.TRANSIENT, rolledBack.kind());
    assertEquals(renders, fakes.renders);
    assertEquals("1 superseded, 2 failed, 3 deployed", records());
    assertEquals("Rollback to 1", description(3));
    Release v3 = fakes.records.get(3).release();
    assertEquals(fakes.records.get(1).release().manifest(), v3.manifest());
    assertEquals(fakes.records.get(1).release().config(), v3.config());
    HelmReleaseStatus status = release.getStatus();
    assertCondition(status, "Remediated", "True", "RollbackSucceeded");
    assertCondition(status, "Ready", "False", "RollbackSucceeded");
    assertCondition(status, "Released", "False", "UpgradeFailed");
    assertEquals(
        "Helm rollback to previous release apps/podinfo.v1 with chart podinfo@6.5.0 succeeded",
        condition(status, "Remediated").getMessage());
    // the Service version 2 added was pruned: the inventory is version 1's Deployment alone
    assertEquals(1, status.inventory().entries().size());
    assertEquals(2, fakes.prunedFrom.get(fakes.prunedFrom.size() - 1).refs().size());
    assertEquals(1L, status.upgradeFailures());
    assertEquals(3, status.latest().version());
    assertEquals("deployed", status.latest().status());
    assertEveryConfigDigest(status);
  }

  @Test
  void theUpgradeIsRetriedAfterTheRollbackThenStallsWhenItsRetriesAreUsed() throws IOException {
    HelmRelease release = installedThenUpgradedUnhealthy("{\"remediation\":{\"retries\":1}}");
    fakes.now = fakes.now.plus(Duration.ofMinutes(6));
    pipeline.reconcile(release); // v2 failed
    pipeline.reconcile(release); // v3: rollback to 1

    pipeline.reconcile(release); // v4: the upgrade retried
    assertEquals("deployed", fakes.records.get(4).release().status().helmName());
    fakes.now = fakes.now.plus(Duration.ofMinutes(6));
    pipeline.reconcile(release); // v4 failed
    assertEquals(2L, release.getStatus().upgradeFailures());
    // retries above 0 remediate the last failure too
    pipeline.reconcile(release);
    assertEquals("Rollback to 3", description(5));
    int renders = fakes.renders;
    int writes = fakes.recordWrites;

    Outcome stalled = pipeline.reconcile(release);

    assertEquals(Outcome.Kind.TERMINAL, stalled.kind());
    assertEquals(renders, fakes.renders);
    assertEquals(writes, fakes.recordWrites);
    HelmReleaseStatus status = release.getStatus();
    assertCondition(status, "Stalled", "True", "RetriesExceeded");
    assertEquals("Failed to upgrade after 2 attempt(s)", condition(status, "Stalled").getMessage());
    assertCondition(status, "Ready", "False", "RollbackSucceeded");
    assertEquals("1 superseded, 2 failed, 3 superseded, 4 failed, 5 deployed", records());

    // a new generation starts the counters again: the upgrade is tried once more
    release.getMetadata().setGeneration(3L);
    fakes.health = Status.Current;
    Outcome again = pipeline.reconcile(release);

    assertEquals(Outcome.Kind.SUCCEEDED, again.kind());
    HelmReleaseStatus after = release.getStatus();
    assertCondition(after, "Ready", "True", "UpgradeSucceeded");
    assertTrue(HelmReleaseStatuses.condition(after, "Stalled").isEmpty());
    assertTrue(HelmReleaseStatuses.condition(after, "Remediated").isEmpty());
    assertNull(after.upgradeFailures());
  }

  @Test
  void aFailedInstallIsUninstalledThenRetriedThenStalls() throws IOException {
    HelmRelease release = ReleaseFakes.release();
    update(
        release, "{\"install\":{\"remediation\":{\"retries\":1,\"remediateLastFailure\":true}}}");
    fakes.applyFails = true;

    pipeline.reconcile(release);
    assertEquals("1 failed", records());
    assertCondition(release.getStatus(), "Released", "False", "InstallFailed");

    Outcome uninstalled = pipeline.reconcile(release);
    assertEquals(Outcome.Kind.TRANSIENT, uninstalled.kind());
    assertEquals("", records());
    assertEquals(1, fakes.deletedInventories.size());
    assertCondition(release.getStatus(), "Remediated", "True", "UninstallSucceeded");
    assertEquals(
        "Helm uninstall remediation for release apps/podinfo.v1 with chart podinfo@6.5.0"
            + " succeeded",
        condition(release.getStatus(), "Remediated").getMessage());
    assertEquals(0, release.getStatus().inventory().entries().size());
    assertEveryConfigDigest(release.getStatus());

    pipeline.reconcile(release); // installed again: fails again
    assertEquals("1 failed", records());
    assertEquals(2L, release.getStatus().installFailures());
    pipeline.reconcile(release); // the last failure remediated too
    assertEquals("", records());
    int renders = fakes.renders;

    Outcome stalled = pipeline.reconcile(release);

    assertEquals(Outcome.Kind.TERMINAL, stalled.kind());
    assertEquals(renders, fakes.renders);
    assertCondition(release.getStatus(), "Stalled", "True", "RetriesExceeded");
    assertEquals(
        "Failed to install after 2 attempt(s)",
        condition(release.getStatus(), "Stalled").getMessage());
  }

  @Test
  void aFailedInstallWithTheDefaultsStallsAtTheNextReconcileAndKeepsItsRecord() {
    HelmRelease release = ReleaseFakes.release();
    fakes.applyFails = true;
    pipeline.reconcile(release);

    Outcome stalled = pipeline.reconcile(release);

    assertEquals(Outcome.Kind.TERMINAL, stalled.kind());
    assertEquals("1 failed", records());
    assertCondition(release.getStatus(), "Stalled", "True", "RetriesExceeded");
    assertCondition(release.getStatus(), "Ready", "False", "InstallFailed");
    assertEquals(1L, release.getStatus().installFailures());
  }

  @Test
  void anObjectThatFailsEndsTheWaitAtOnceAndFailsTheInstall() {
    HelmRelease release = ReleaseFakes.release();
    fakes.health = Status.Failed;

    Outcome outcome = pipeline.reconcile(release);

    assertEquals(Outcome.Kind.TRANSIENT, outcome.kind());
    assertEquals("1 failed", records());
    assertTrue(description(1).startsWith("Release \"podinfo\" failed: health check failed: "));
    assertCondition(release.getStatus(), "Released", "False", "InstallFailed");
    assertEquals(1L, release.getStatus().installFailures());
    assertEveryConfigDigest(release.getStatus());
  }

  @Test
  void withDisableWaitTheTimeoutFailsNothing() throws IOException {
    HelmRelease release = ReleaseFakes.release();
    update(release, "{\"install\":{\"disableWait\":true}}");
    fakes.health = Status.InProgress;
    pipeline.reconcile(release);

    fakes.now = fakes.now.plus(Duration.ofMinutes(6));
    pipeline.reconcile(release);

    assertEquals("1 deployed", records());
    assertCondition(release.getStatus(), "Released", "True", "InstallSucceeded");
  }

  @Test
  void healthLostAfterTheWaitEndedFailsNoRelease() {
    HelmRelease release = ReleaseFakes.release();
    pipeline.reconcile(release);

    fakes.health = Status.Failed;
    fakes.now = fakes.now.plus(Duration.ofMinutes(10));
    pipeline.reconcile(release);

    assertEquals("1 deployed", records());
    assertCondition(release.getStatus(), "Ready", "False", "HealthCheckFailed");
    assertCondition(release.getStatus(), "Released", "True", "InstallSucceeded");
  }

  /** Version 1 (a Deployment) healthy, then version 2 (with a Service) whose objects are not. */
  private HelmRelease installedThenUpgradedUnhealthy(String upgrade) throws IOException {
    HelmRelease release = ReleaseFakes.release();
    update(release, "{\"maxHistory\":10,\"upgrade\":" + upgrade + "}");
    fakes.manifest = ReleaseFakes.read("manifest-without-service.yaml");
    pipeline.reconcile(release);
    release.getMetadata().setGeneration(2L);
    update(release, "{\"values\":{\"replicaCount\":3}}");
    fakes.manifest = ReleaseFakes.read("manifest.yaml");
    fakes.health = Status.InProgress;
    pipeline.reconcile(release);
    assertEquals("1 superseded, 2 deployed", records());
    assertFalse(Optional.ofNullable(release.getStatus().upgradeFailures()).isPresent());
    return release;
  }

  /** The API requires a snapshot's configDigest: the API server refuses a status without one. */
  private static void assertEveryConfigDigest(HelmReleaseStatus status) {
    status
        .history()
        .forEach(
            s ->
                assertTrue(
                    s.configDigest() != null && s.configDigest().startsWith("sha256:"),
                    s.version() + " " + s.status()));
  }

  private String records() {
    return fakes.records.values().stream()
        .map(ReleaseRecord::release)
        .map(r -> r.version() + " " + r.status().helmName())
        .collect(Collectors.joining(", "));
  }

  private String description(int version) {
    return fakes.records.get(version).release().info().description();
  }

  private static void update(HelmRelease release, String json) throws IOException {
    ObjectMapper mapper = new ObjectMapper();
    ObjectNode spec = mapper.valueToTree(release.getSpec());
    spec.setAll((ObjectNode) mapper.readTree(json));
    release.setSpec(mapper.treeToValue(spec, HelmReleaseSpec.class));
  }

  private static void assertCondition(
      HelmReleaseStatus status, String type, String expected, String reason) {
    Condition condition = condition(status, type);
    assertEquals(expected + " " + reason, condition.getStatus() + " " + condition.getReason());
  }

  private static Condition condition(HelmReleaseStatus status, String type) {
    return HelmReleaseStatuses.condition(status, type).orElseThrow();
  }
}
