package dev.capstan.engine.helmrelease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.capstan.api.helm.HelmRelease;
import dev.capstan.api.helm.HelmReleaseSpec;
import dev.capstan.api.helm.HelmReleaseStatus;
import dev.capstan.engine.conditions.HelmReleaseStatuses;
import dev.capstan.health.status.Status;
import dev.capstan.helm.release.ReleaseRecord;
import io.fabric8.kubernetes.api.model.Condition;
import java.io.IOException;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Helm tests through the pipeline: run once an install's objects are ready, their last run in the
 * deployed record; a failed test of an upgrade fails it, is not run again, and with a retry left
 * the release is rolled back to the version before it.
 */
class ReleaseTestRunTest {
  private final ReleaseFakes fakes = new ReleaseFakes();
  private final HelmReleasePipeline pipeline = fakes.pipeline();

  @Test
  void aFailedTestOfAnUpgradeFailsItAndTheReleaseIsRolledBackToTheVersionBefore()
      throws IOException {
    fakes.hooks = ReleaseHooksTest.hooks("smoke");
    HelmRelease release = ReleaseFakes.release();
    update(
        release,
        "{\"maxHistory\":10,\"test\":{\"enable\":true},"
            + "\"upgrade\":{\"remediation\":{\"retries\":1}}}");
    fakes.hookHealth.put("smoke", Status.InProgress);
    pipeline.reconcile(release);
    assertCondition(release.getStatus(), "TestSuccess", "Unknown AwaitingTests");
    assertCondition(release.getStatus(), "Ready", "Unknown Progressing");

    fakes.hookHealth.put("smoke", Status.Current);
    pipeline.reconcile(release);
    assertCondition(release.getStatus(), "TestSuccess", "True TestSucceeded");
    assertCondition(release.getStatus(), "Ready", "True InstallSucceeded");
    assertEquals("Succeeded", testPhase(1));

    release.getMetadata().setGeneration(2L);
    update(release, "{\"values\":{\"replicaCount\":3}}");
    fakes.hookHealth.put("smoke", Status.Failed);
    pipeline.reconcile(release);
    HelmReleaseStatus failed = release.getStatus();
    assertEquals("1 superseded, 2 deployed", records());
    assertEquals("Failed", testPhase(2));
    assertCondition(failed, "TestSuccess", "False TestFailed");
    assertCondition(failed, "Ready", "False TestFailed");
    assertEquals(
        "Helm test failed for release apps/podinfo.v2 with chart podinfo@6.5.0:"
            + " test hook smoke failed",
        condition(failed, "Ready").getMessage().split(": test hook smoke failed:")[0]
            + ": test hook smoke failed");
    assertEquals(1L, failed.upgradeFailures());
    int created = (int) fakes.writes.stream().filter("Job/smoke"::equals).count();

    pipeline.reconcile(release);
    assertEquals("1 superseded, 2 superseded, 3 deployed", records());
    assertEquals("Rollback to 1", fakes.records.get(3).release().info().description());
    assertCondition(release.getStatus(), "Remediated", "True RollbackSucceeded");
    assertEquals(created, fakes.writes.stream().filter("Job/smoke"::equals).count());
    assertTrue(created >= 2, "the test ran for each version: " + fakes.writes);
  }

  @Test
  void aFailedTestWhoseStatusWriteWasLostIsStillRemediatedNotUpgradedAgain() throws IOException {
    fakes.hooks = ReleaseHooksTest.hooks("smoke");
    HelmRelease release = ReleaseFakes.release();
    update(
        release,
        "{\"maxHistory\":10,\"test\":{\"enable\":true},"
            + "\"upgrade\":{\"remediation\":{\"retries\":1}}}");
    fakes.hookHealth.put("smoke", Status.Current);
    pipeline.reconcile(release);
    assertEquals(
        "Succeeded",
        release.getStatus().history().get(0).testHooks().get("smoke").phase(),
        "a passed run is kept too");
    release.getMetadata().setGeneration(2L);
    update(release, "{\"values\":{\"replicaCount\":3}}");
    fakes.hookHealth.put("smoke", Status.InProgress);
    pipeline.reconcile(release);
    assertCondition(release.getStatus(), "TestSuccess", "Unknown AwaitingTests");
    HelmReleaseStatus beforeTheFailure = release.getStatus();
    fakes.hookHealth.put("smoke", Status.Failed);
    pipeline.reconcile(release);
    assertEquals(1L, release.getStatus().upgradeFailures());
    assertEquals("Failed", release.getStatus().history().get(0).testHooks().get("smoke").phase());

    release.setStatus(beforeTheFailure); // the write after the failed test was lost
    pipeline.reconcile(release);

    assertEquals("1 superseded, 2 superseded, 3 deployed", records());
    assertCondition(release.getStatus(), "Remediated", "True RollbackSucceeded");
    assertEquals(1L, release.getStatus().upgradeFailures());
  }

  @Test
  void aTestHookNotCreatedFailsTheTestWithTheEngineReason() throws IOException {
    fakes.hooks = ReleaseHooksTest.hooks("smoke");
    fakes.refused = "smoke";
    HelmRelease release = ReleaseFakes.release();
    update(release, "{\"test\":{\"enable\":true}}");

    pipeline.reconcile(release);

    assertCondition(release.getStatus(), "TestSuccess", "False TestFailed");
    String message = condition(release.getStatus(), "TestSuccess").getMessage();
    assertTrue(
        message.startsWith(
            "Helm test failed for release apps/podinfo.v1 with chart podinfo@6.5.0:"
                + " test hook smoke failed: test hook "),
        message);
    assertTrue(message.contains("could not be created"), message);
    assertTrue(message.contains(fakes.applyError), message);
  }

  private String testPhase(int version) {
    return HookPhase.of(ReleaseHooks.hooksOf(fakes.records.get(version)).get(0)).text();
  }

  private String records() {
    return fakes.records.values().stream()
        .map(ReleaseRecord::release)
        .map(r -> r.version() + " " + r.status().helmName())
        .collect(Collectors.joining(", "));
  }

  private static void update(HelmRelease release, String json) throws IOException {
    ObjectMapper mapper = new ObjectMapper();
    ObjectNode spec = mapper.valueToTree(release.getSpec());
    spec.setAll((ObjectNode) mapper.readTree(json));
    release.setSpec(mapper.treeToValue(spec, HelmReleaseSpec.class));
  }

  private static void assertCondition(HelmReleaseStatus status, String type, String expected) {
    Condition c = condition(status, type);
    assertEquals(expected, c.getStatus() + " " + c.getReason(), c.getMessage());
  }

  private static Condition condition(HelmReleaseStatus status, String type) {
    return HelmReleaseStatuses.condition(status, type).orElseThrow();
  }
}
