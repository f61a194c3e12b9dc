package dev.capstan.engine.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.capstan.api.helm.HelmRelease;
import dev.capstan.source.helm.IndexServer;
import dev.capstan.testing.ClusterAccess;
import dev.capstan.testing.RepoRoot;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rollback and delete hooks and {@code install.createNamespace} against the real API server (kwok
 * completes the hook Jobs' pods), read back with the real {@code helm}: an upgrade that never
 * becomes healthy is rolled back with its pre-rollback Job completed before its post-rollback Job
 * is created, both recorded in the rollback's revision; deleting the HelmRelease runs its
 * pre-delete Job, removes its objects, then runs its post-delete Job; an install creates its
 * missing target namespace when asked, and fails by the namespace's name when not.
 *
 * <p>The order is read from one watch of the namespace's Jobs, whose events come in the order the
 * API server stored the changes, not from timestamps, which have whole seconds only.
 */
class HelmReleaseLifecycleHooksIT extends EngineTestBase {
  private static final Path CHART =
      RepoRoot.find().resolve("engine/src/test/resources/helmrelease/lifecycle-hooks-chart");

  @Test
  void aRollbackRunsItsHooksInOrderAndADeletionRunsTheDeleteHooks(
      ClusterAccess cluster, @TempDir Path home) throws Exception {
    HelmReleaseIT.Helm helm = HelmReleases.helm(cluster, home);
    JobEvents jobs = new JobEvents();
    try (IndexServer served =
            HelmReleases.chartServed("lifecycle-charts", CHART, "lifecycle-hooks", "0.1.0");
        Watch watch = engine.client.batch().v1().jobs().inNamespace(ns()).watch(jobs)) {
      HelmReleaseIT.create(
          "helm.capstan.dev/v2",
          "HelmRelease",
          "lifecycle",
          spec("lifecycle-charts")
              + """
                upgrade:
                  remediation: {retries: 0, remediateLastFailure: true}
                rollback: {timeout: 2m}
                uninstall: {timeout: 2m}
                healthCheckExprs:
                  - apiVersion: apps/v1
                    kind: Deployment
                    current: "spec.replicas == 1"
              """);
      HelmReleases.await(
          "lifecycle", "Ready", c -> isTrue(c) && "InstallSucceeded".equals(c.getReason()));
      assertNull(job("before-rollback"), "an install runs no rollback hook");

      // two replicas are never Current by the expression: the upgrade fails and is rolled back
      HelmReleaseIT.patchSpecOf("lifecycle", "{\"values\":{\"replicaCount\":2}}");

      Condition remediated =
          HelmReleases.await("lifecycle", "Remediated", c -> c.getReason() != null);
      assertEquals("True RollbackSucceeded", remediated.getStatus() + " " + remediated.getReason());
      assertEquals(List.of("1 superseded", "2 failed", "3 deployed"), helm.history("lifecycle"));
      assertEquals(
          Map.of(
              "before-rollback",
              "Succeeded",
              "after-rollback",
              "Succeeded",
              "drain",
              "",
              "farewell",
              ""),
          hookPhases(helm.json("status", "lifecycle", "--revision", "3")));
      jobs.assertBefore("before-rollback completed", "after-rollback created");
      assertEquals(1, HelmReleases.deployment("app").getSpec().getReplicas());

      engine.client.resources(HelmRelease.class).inNamespace(ns()).withName("lifecycle").delete();

      EngineFixture.eventually(HelmReleases.WAIT)
          .untilAsserted(() -> assertNull(HelmReleases.release("lifecycle")));
      assertNull(HelmReleases.deployment("app"), "the release's objects are deleted");
      assertNotNull(job("farewell"), "the post-delete hook ran");
      jobs.assertBefore("drain completed", "farewell created");
      assertTrue(
          helm.list().stream().noneMatch(r -> r.startsWith("lifecycle ")), "no release left");
    }
  }

  @Test
  void createNamespaceInstallsIntoANewNamespaceAndWithoutItAnObjectInAMissingOneFailsNamingIt(
      ClusterAccess cluster, @TempDir Path home) throws Exception {
    String target = ns() + "-made";
    String missing = ns() + "-missing";
    try (IndexServer served =
        HelmReleases.chartServed("ns-charts", CHART, "lifecycle-hooks", "0.1.0")) {
      HelmReleaseIT.create(
          "helm.capstan.dev/v2",
          "HelmRelease",
          "made",
          spec("ns-charts")
              + "  targetNamespace: "
              + target
              + "\n  install: {createNamespace: true}\n");
      HelmReleaseIT.create(
          "helm.capstan.dev/v2",
          "HelmRelease",
          "unmade",
          spec("ns-charts") + "  targetNamespace: " + missing + "\n");

      HelmReleases.await(
          "made", "Ready", c -> isTrue(c) && "InstallSucceeded".equals(c.getReason()));
      Namespace made = engine.client.namespaces().withName(target).get();
      assertEquals(target, made.getMetadata().getLabels().get("name"));
      assertNotNull(
          engine.client.apps().deployments().inNamespace(target).withName("app").get(),
          "installed into the new namespace");
      Condition failed =
          HelmReleases.await(
              "unmade", "Ready", c -> isFalse(c) && "InstallFailed".equals(c.getReason()));
      // nothing checks the namespace beforehand, as Helm: the chart's own apply names it
      assertTrue(failed.getMessage().contains(missing), failed.getMessage());
      assertNull(engine.client.namespaces().withName(missing).get());

      engine.client.resources(HelmRelease.class).inNamespace(ns()).withName("made").delete();
      EngineFixture.eventually(HelmReleases.WAIT)
          .untilAsserted(() -> assertNull(HelmReleases.release("made")));
      Namespace kept = engine.client.namespaces().withName(target).get();
      assertNotNull(kept, "an uninstall never deletes the namespace");
      assertNull(kept.getMetadata().getDeletionTimestamp());
    } finally {
      engine.client.namespaces().withName(target).delete();
    }
  }

  private static String spec(String repository) {
    return """
      interval: 10m
      timeout: 20s
      chart:
        metadata:
          labels: {%s: %s}
        spec:
          chart: lifecycle-hooks
          interval: 1m
          sourceRef: {kind: HelmRepository, name: %s}
    """
        .formatted(EngineFixture.SHARD_LABEL, engine.shard, repository);
  }

  /** Each hook of a {@code helm status -o json} by name, its last run's phase. */
  private static Map<String, String> hookPhases(JsonNode status) {
    Map<String, String> phases = new HashMap<>();
    for (JsonNode hook : status.path("hooks")) {
      phases.put(hook.path("name").asText(), hook.path("last_run").path("phase").asText());
    }
    return phases;
  }

  /**
   * What the watch of the namespace's Jobs saw, in its order: {@code <name> created} at a Job's
   * first event, {@code <name> completed} at the first that shows it complete.
   */
  private static final class JobEvents implements Watcher<Job> {
    private final List<String> seen = new CopyOnWriteArrayList<>();

    @Override
    public void eventReceived(Action action, Job job) {
      String name = job.getMetadata().getName();
      if (action == Action.DELETED) {
        return;
      }
      addOnce(name + " created");
      if (job.getStatus() != null && job.getStatus().getCompletionTime() != null) {
        addOnce(name + " completed");
      }
    }

    @Override
    public void onClose(WatcherException cause) {
      seen.add("closed: " + cause.getMessage());
    }

    private synchronized void addOnce(String event) {
      if (!seen.contains(event)) {
        seen.add(event);
      }
    }

    /** {@code first} was seen, and before {@code then}, which was seen too. */
    void assertBefore(String first, String then) {
      EngineFixture.eventually(HelmReleases.WAIT)
          .untilAsserted(() -> assertTrue(seen.contains(then), then + " in " + seen));
      int a = seen.indexOf(first);
      assertTrue(a >= 0 && a < seen.indexOf(then), first + " before " + then + " in " + seen);
    }
  }

  private static Job job(String name) {
    return engine.client.batch().v1().jobs().inNamespace(ns()).withName(name).get();
  }
}
