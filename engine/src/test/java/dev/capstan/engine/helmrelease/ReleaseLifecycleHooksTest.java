package dev.capstan.engine.helmrelease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.capstan.api.helm.HelmRelease;
import dev.capstan.api.helm.HelmReleaseSpec;
import dev.capstan.applier.apply.ApplyRequest;
import dev.capstan.engine.conditions.HelmReleaseStatuses;
import dev.capstan.health.status.Status;
import dev.capstan.helm.release.ReleaseHook;
import dev.capstan.helm.release.ReleaseRecord;
import dev.capstan.helm.release.ReleaseStatus;
import io.fabric8.kubernetes.api.model.Condition;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Rollback and delete hooks run as Helm runs them: {@code pre-rollback} hooks of the version gone
 * back to before its objects and {@code post-rollback} after, {@code pre-delete} hooks before an
 * uninstall deletes the objects and {@code post-delete} after; each in weight order, waited on,
 * with its delete policies, its run in the release record, and skipped by {@code disableHooks}.
 */
class ReleaseLifecycleHooksTest {
  private final ReleaseFakes fakes = new ReleaseFakes();
  private final HelmReleasePipeline pipeline = fakes.pipeline();

  @Test
  void aRollbackRunsItsPreHooksInWeightOrderBeforeTheObjectsAndItsPostHooksAfter()
      throws IOException {
    HelmRelease release = failedUpgrade("{\"remediation\":{\"retries\":1}}");
    fakes.writes.clear();

    pipeline.reconcile(release);

    assertEquals("1 superseded, 2 failed, 3 deployed", records());
    assertEquals(
        List.of(
            "-ConfigMap/snapshot",
            "ConfigMap/snapshot",
            "Job/before-rollback",
            "-Job/before-rollback",
            "Deployment/podinfo",
            "-Job/after-rollback",
            "Job/after-rollback"),
        fakes.writes.stream().filter(w -> !w.contains("Service")).toList(),
        "snapshot weighs -1; before-rollback goes by hook-succeeded; the others go first");
    assertEquals(
        Map.of(
            "snapshot", "Succeeded", "before-rollback", "Succeeded", "after-rollback", "Succeeded"),
        phases(3));
    assertEquals(Map.of("snapshot", "", "before-rollback", "", "after-rollback", ""), phases(1));
    assertCondition(release, "Remediated", "True RollbackSucceeded");
  }

  @Test
  void aRollbackWaitsForARunningHookUntilItCompletes() throws IOException {
    HelmRelease release = failedUpgrade("{\"remediation\":{\"retries\":1}}");
    fakes.hookHealth.put("before-rollback", Status.InProgress);
    fakes.onHookSleep =
        () -> {
          if (fakes.hookSleeps == 3) {
            fakes.hookHealth.put("before-rollback", Status.Current);
          }
        };

    pipeline.reconcile(release);

    assertEquals(3, fakes.hookSleeps);
    assertEquals(ReleaseStatus.DEPLOYED, fakes.records.get(3).release().status());
    ReleaseHook.Execution run = hook(3, "before-rollback").lastRun();
    assertEquals(
        Duration.ofSeconds(6),
        Duration.between(Instant.parse(run.startedAt()), Instant.parse(run.completedAt())));
  }

  @Test
  void aFailedPreRollbackHookFailsTheRollbackBeforeAnyObjectIsApplied() throws IOException {
    HelmRelease release = failedUpgrade("{\"remediation\":{\"retries\":1}}");
    fakes.hookHealth.put("before-rollback", Status.Failed);
    fakes.writes.clear();

    pipeline.reconcile(release);

    assertEquals("1 deployed, 2 failed, 3 failed", records());
    assertEquals("Failed", phases(3).get("before-rollback"));
    assertFalse(fakes.writes.contains("Deployment/podinfo"), fakes.writes.toString());
    assertFalse(fakes.writes.contains("Job/after-rollback"));
    Condition remediated = condition(release, "Remediated");
    assertEquals("False RollbackFailed", remediated.getStatus() + " " + remediated.getReason());
    assertTrue(
        remediated.getMessage().contains("pre-rollback hook Job/before-rollback"),
        remediated.getMessage());
  }

  @Test
  void aRollbackHookThatNeverCompletesFailsTheRollbackAtTheRollbackTimeout() throws IOException {
    HelmRelease release = failedUpgrade("{\"remediation\":{\"retries\":1}}");
    update(release, "{\"rollback\":{\"timeout\":\"20s\"}}");
    fakes.hookHealth.put("after-rollback", Status.InProgress);

    pipeline.reconcile(release);

    assertEquals(ReleaseStatus.FAILED, fakes.records.get(3).release().status());
    assertEquals("Failed", phases(3).get("after-rollback"));
    assertEquals(10, fakes.hookSleeps, "looked at every 2s for 20s");
    assertTrue(
        condition(release, "Remediated").getMessage().contains("did not complete within PT20S"));
  }

  @Test
  void aRollbackHookHoldsTheThreadNoLongerThanTheEngineBoundWhateverTheRollbackTimeout()
      throws IOException {
    HelmRelease release = failedUpgrade("{\"remediation\":{\"retries\":1}}");
    update(release, "{\"rollback\":{\"timeout\":\"1h\"}}");
    fakes.hookHealth.put("before-rollback", Status.InProgress);
    fakes.writes.clear();

    pipeline.reconcile(release);

    assertEquals(150, fakes.hookSleeps, "looked at every 2s for the 5m bound, not the hour");
    assertEquals(ReleaseStatus.FAILED, fakes.records.get(3).release().status());
    assertEquals("Failed", phases(3).get("before-rollback"));
    assertFalse(fakes.writes.contains("Deployment/podinfo"), fakes.writes.toString());
    String message = condition(release, "Remediated").getMessage();
    assertTrue(message.contains("pre-rollback hook Job/before-rollback"), message);
    assertTrue(message.contains("did not complete within the engine's bound of PT5M"), message);
  }

  @Test
  void theEngineBoundCoversAllHooksOfAnEventTogether() throws IOException {
    fakes.hooks = ReleaseHooksTest.hooks("drain", "flush");
    HelmRelease release = ReleaseFakes.release();
    pipeline.reconcile(release);
    update(release, "{\"uninstall\":{\"timeout\":\"4m\"}}");
    fakes.hookHealth.put("drain", Status.InProgress);
    fakes.hookHealth.put("flush", Status.InProgress);
    fakes.onHookSleep =
        () -> {
          if (fakes.hookSleeps == 90) {
            fakes.hookHealth.put("drain", Status.Current); // after 3m, within its own 4m
          }
        };

    Optional<Duration> again = pipeline.delete(release);

    assertTrue(again.isPresent(), "the finalizer stays");
    assertEquals(150, fakes.hookSleeps, "flush, 2m into its own 4m, ends with the event's 5m");
    assertEquals(Map.of("drain", "Succeeded", "flush", "Failed"), phases(1));
    String message = condition(release, "Ready").getMessage();
    assertTrue(message.contains("pre-delete hook Job/flush"), message);
    assertTrue(message.contains("the engine's bound of PT5M"), message);
  }

  @Test
  void rollbackHooksAreCreatedWithinTheRollbackTimeout() throws IOException {
    HelmRelease release = failedUpgrade("{\"remediation\":{\"retries\":1}}");
    update(release, "{\"rollback\":{\"timeout\":\"42s\"}}");
    fakes.applyRequests.clear();

    pipeline.reconcile(release);

    List<Duration> hooks =
        fakes.applyRequests.stream()
            .filter(r -> r.objects().size() == 1 && "Job".equals(r.objects().get(0).getKind()))
            .map(ApplyRequest::timeout)
            .toList();
    assertEquals(List.of(Duration.ofSeconds(42), Duration.ofSeconds(42)), hooks);
  }

  @Test
  void rollbackDisableHooksRunsNone() throws IOException {
    HelmRelease release = failedUpgrade("{\"remediation\":{\"retries\":1}}");
    update(release, "{\"rollback\":{\"disableHooks\":true}}");
    fakes.writes.clear();

    pipeline.reconcile(release);

    assertEquals("1 superseded, 2 failed, 3 deployed", records());
    assertTrue(fakes.writes.stream().noneMatch(w -> w.contains("rollback") || w.contains("snap")));
  }

  @Test
  void deletionRunsPreDeleteHooksBeforeTheObjectsGoAndPostDeleteHooksAfter() {
    fakes.hooks = ReleaseHooksTest.hooks("drain", "farewell");
    HelmRelease release = ReleaseFakes.release();
    pipeline.reconcile(release);
    fakes.writes.clear();

    Optional<Duration> again = pipeline.delete(release);

    assertTrue(again.isEmpty());
    assertEquals(
        List.of(
            "Job/drain",
            "-Job/drain",
            "-Service/podinfo",
            "-Deployment/podinfo",
            "-Job/farewell",
            "Job/farewell"),
        fakes.writes,
        "drain goes by hook-succeeded; farewell is deleted before its creation only");
    assertTrue(fakes.records.isEmpty());
  }

  @Test
  void aPreDeleteHookThatNeverCompletesFailsTheUninstallAndKeepsTheRecord() throws IOException {
    fakes.hooks = ReleaseHooksTest.hooks("drain", "farewell");
    HelmRelease release = ReleaseFakes.release();
    pipeline.reconcile(release);
    update(release, "{\"uninstall\":{\"timeout\":\"10s\"}}");
    fakes.hookHealth.put("drain", Status.InProgress);
    fakes.writes.clear();

    Optional<Duration> again = pipeline.delete(release);

    assertTrue(again.isPresent(), "the finalizer stays");
    assertEquals(5, fakes.hookSleeps);
    assertEquals(List.of(1), List.copyOf(fakes.records.keySet()));
    assertEquals(ReleaseStatus.DEPLOYED, fakes.records.get(1).release().status());
    assertEquals("Failed", phases(1).get("drain"));
    assertEquals(List.of("Job/drain", "-Job/drain"), fakes.writes, "hook-failed; no object went");
    Condition ready = condition(release, "Ready");
    assertEquals("False UninstallFailed", ready.getStatus() + " " + ready.getReason());
    assertTrue(ready.getMessage().contains("pre-delete hook Job/drain"), ready.getMessage());
    assertTrue(ready.getMessage().contains("did not complete within PT10S"), ready.getMessage());

    fakes.hookHealth.put("drain", Status.Current);
    assertTrue(pipeline.delete(release).isEmpty(), "the next try runs the hook again");
    assertTrue(fakes.records.isEmpty());
  }

  @Test
  void aFailedPostDeleteHookIsReportedYetTheRecordsGoAndTheNextTryRunsNoHook() {
    fakes.hooks = ReleaseHooksTest.hooks("drain", "farewell");
    HelmRelease release = ReleaseFakes.release();
    pipeline.reconcile(release);
    fakes.hookHealth.put("farewell", Status.Failed);
    fakes.writes.clear();

    Optional<Duration> again = pipeline.delete(release);

    assertTrue(again.isPresent(), "the failure is reported once");
    assertTrue(fakes.records.isEmpty(), "the records went regardless");
    Condition ready = condition(release, "Ready");
    assertEquals("False UninstallFailed", ready.getStatus() + " " + ready.getReason());
    assertTrue(ready.getMessage().contains("post-delete hook Job/farewell"), ready.getMessage());
    fakes.writes.clear();

    assertTrue(pipeline.delete(release).isEmpty(), "no release left: the HelmRelease goes");
    assertTrue(
        fakes.writes.stream().noneMatch(w -> w.contains("Job/")),
        "no hook runs twice: " + fakes.writes);
  }

  @Test
  void aFailedPostDeleteHookWithKeepHistoryMarksTheRecordUninstalledAndLetsGoNext()
      throws IOException {
    fakes.hooks = ReleaseHooksTest.hooks("drain", "farewell");
    HelmRelease release = ReleaseFakes.release();
    pipeline.reconcile(release);
    update(release, "{\"uninstall\":{\"keepHistory\":true}}");
    fakes.hookHealth.put("farewell", Status.Failed);

    assertTrue(pipeline.delete(release).isPresent());
    assertEquals(ReleaseStatus.UNINSTALLED, fakes.records.get(1).release().status());
    assertEquals("Failed", phases(1).get("farewell"));
    fakes.writes.clear();

    assertTrue(pipeline.delete(release).isEmpty());
    assertEquals(List.of(), fakes.writes, "no hook and no object touched again");
    assertEquals(ReleaseStatus.UNINSTALLED, fakes.records.get(1).release().status());
  }

  @Test
  void anAlreadyUninstalledReleaseRunsNoHooksAndItsRecordsGoWithoutKeepHistory()
      throws IOException {
    fakes.hooks = ReleaseHooksTest.hooks("drain", "farewell");
    HelmRelease release = ReleaseFakes.release();
    pipeline.reconcile(release);
    update(release, "{\"uninstall\":{\"keepHistory\":true}}");
    pipeline.delete(release);
    assertEquals(ReleaseStatus.UNINSTALLED, fakes.records.get(1).release().status());
    update(release, "{\"uninstall\":{\"keepHistory\":false}}");
    fakes.writes.clear();

    assertTrue(pipeline.delete(release).isEmpty());

    assertEquals(List.of(), fakes.writes, "no hook runs again");
    assertTrue(fakes.records.isEmpty());
  }

  @Test
  void anInterruptedHookWaitWritesNoFailureAndKeepsTheInterruptFlag() throws IOException {
    fakes.hooks = ReleaseHooksTest.hooks("drain", "farewell");
    HelmRelease release = ReleaseFakes.release();
    pipeline.reconcile(release);
    fakes.hookHealth.put("drain", Status.InProgress);
    fakes.hookSleepInterrupted = true;

    assertThrows(HookEventRun.Interrupted.class, () -> pipeline.delete(release));

    assertTrue(Thread.interrupted(), "the flag is set again (and cleared here)");
    assertEquals(ReleaseStatus.DEPLOYED, fakes.records.get(1).release().status());
    assertTrue(
        HelmReleaseStatuses.condition(release.getStatus(), "Ready")
            .filter(c -> "UninstallFailed".equals(c.getReason()))
            .isEmpty(),
        "no UninstallFailed written");
  }

  @Test
  void anInterruptedRollbackHookWaitLeavesTheRollbackRecordUnfailed() throws IOException {
    HelmRelease release = failedUpgrade("{\"remediation\":{\"retries\":1}}");
    fakes.hookHealth.put("before-rollback", Status.InProgress);
    fakes.hookSleepInterrupted = true;

    assertThrows(HookEventRun.Interrupted.class, () -> pipeline.reconcile(release));

    assertTrue(Thread.interrupted());
    assertEquals(ReleaseStatus.PENDING_ROLLBACK, fakes.records.get(3).release().status());
  }

  @Test
  void uninstallDisableHooksRunsNoneAndKeepHistoryKeepsTheLatestRecord() throws IOException {
    fakes.hooks = ReleaseHooksTest.hooks("drain", "farewell");
    HelmRelease release = ReleaseFakes.release();
    pipeline.reconcile(release);
    update(release, "{\"uninstall\":{\"disableHooks\":true,\"keepHistory\":true}}");
    fakes.writes.clear();

    pipeline.delete(release);

    assertEquals(List.of("-Service/podinfo", "-Deployment/podinfo"), fakes.writes);
    assertEquals(ReleaseStatus.UNINSTALLED, fakes.records.get(1).release().status());
  }

  @Test
  void keepHistoryKeepsTheDeleteHooksRunsInTheUninstalledRecord() throws IOException {
    fakes.hooks = ReleaseHooksTest.hooks("drain", "farewell");
    HelmRelease release = ReleaseFakes.release();
    pipeline.reconcile(release);
    update(release, "{\"uninstall\":{\"keepHistory\":true}}");

    pipeline.delete(release);

    assertEquals(ReleaseStatus.UNINSTALLED, fakes.records.get(1).release().status());
    assertEquals(Map.of("drain", "Succeeded", "farewell", "Succeeded"), phases(1));
  }

  @Test
  void anUninstallRemediationRunsTheDeleteHooksToo() throws IOException {
    fakes.hooks = ReleaseHooksTest.hooks("drain", "farewell");
    HelmRelease release = ReleaseFakes.release();
    update(release, "{\"install\":{\"remediation\":{\"retries\":1}}}");
    fakes.health = Status.InProgress;
    pipeline.reconcile(release);
    fakes.now = fakes.now.plus(Duration.ofMinutes(6));
    pipeline.reconcile(release); // the wait fails the install
    fakes.writes.clear();

    pipeline.reconcile(release); // uninstalled as its remediation

    assertEquals("Job/drain", fakes.writes.get(0), fakes.writes.toString());
    assertEquals("Job/farewell", fakes.writes.get(fakes.writes.size() - 1));
    assertCondition(release, "Remediated", "True UninstallSucceeded");
  }

  /**
   * Version 1 healthy, then version 2 whose wait failed, with rollback hooks in both: the next
   * reconcile rolls back.
   */
  private HelmRelease failedUpgrade(String upgrade) throws IOException {
    fakes.hooks = ReleaseHooksTest.hooks("snapshot", "before-rollback", "after-rollback");
    HelmRelease release = ReleaseFakes.release();
    update(release, "{\"maxHistory\":10,\"upgrade\":" + upgrade + "}");
    fakes.manifest = ReleaseFakes.read("manifest-without-service.yaml");
    pipeline.reconcile(release);
    release.getMetadata().setGeneration(2L);
    update(release, "{\"values\":{\"replicaCount\":3}}");
    fakes.manifest = ReleaseFakes.read("manifest.yaml");
    fakes.health = Status.InProgress;
    pipeline.reconcile(release);
    fakes.now = fakes.now.plus(Duration.ofMinutes(6));
    pipeline.reconcile(release);
    assertEquals("1 deployed, 2 failed", records());
    fakes.health = Status.Current;
    return release;
  }

  private Map<String, String> phases(int version) {
    return fakes.records.get(version).release().hooks().stream()
        .collect(
            Collectors.toMap(
                ReleaseHook::name, h -> h.lastRun() == null ? "" : h.lastRun().phase()));
  }

  private ReleaseHook hook(int version, String name) {
    return fakes.records.get(version).release().hooks().stream()
        .filter(h -> h.name().equals(name))
        .findFirst()
        .orElseThrow();
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

  private static Condition condition(HelmRelease release, String type) {
    return HelmReleaseStatuses.condition(release.getStatus(), type).orElseThrow();
  }

  private static void assertCondition(HelmRelease release, String type, String expected) {
    Condition condition = condition(release, type);
    assertEquals(expected, condition.getStatus() + " " + condition.getReason());
  }
}
