package dev.capstan.engine.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.capstan.api.helm.HelmReleaseStatus;
import dev.capstan.engine.conditions.HelmReleaseStatuses;
import dev.capstan.source.helm.IndexServer;
import dev.capstan.testing.ClusterAccess;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Failed HelmReleases remediated as Flux's helm-controller remediates them, with podinfo's real
 * chart served by a Helm repository over HTTP: an upgrade whose Deployment never becomes healthy (a
 * healthCheckExprs entry keeps it in progress) fails at {@code spec.timeout} and is rolled back to
 * the last good revision, as the real {@code helm history} shows; an install whose Deployment fails
 * is uninstalled after each failure and stalls when its retries are used.
 */
class HelmReleaseRemediationIT extends EngineTestBase {
  @Test
  void anUpgradeThatNeverBecomesHealthyIsRolledBackThenStalls(
      ClusterAccess cluster, @TempDir Path home) throws Exception {
    HelmReleaseIT.Helm helm = HelmReleases.helm(cluster, home);
    try (IndexServer served = HelmReleases.chartServed("charts")) {
      HelmReleaseIT.create(
          "helm.capstan.dev/v2",
          "HelmRelease",
          "podinfo",
          """
            interval: 10m
            timeout: 5s
            chart:
              metadata:
                labels: {%s: %s}
              spec:
                chart: podinfo
                interval: 1m
                sourceRef: {kind: HelmRepository, name: charts}
            upgrade:
              remediation: {retries: 0, remediateLastFailure: true}
            healthCheckExprs:
              - apiVersion: apps/v1
                kind: Deployment
                current: "spec.replicas == 1"
            values:
              replicaCount: 1
          """
              .formatted(EngineFixture.SHARD_LABEL, engine.shard));
      HelmReleases.await(
          "podinfo", "Ready", c -> isTrue(c) && "InstallSucceeded".equals(c.getReason()));

      // two replicas are never Current by the expression: the wait ends at spec.timeout
      HelmReleaseIT.patchSpec("{\"values\":{\"replicaCount\":2}}");

      Condition stalled = HelmReleases.await("podinfo", "Stalled", EngineTestBase::isTrue);
      assertEquals("RetriesExceeded", stalled.getReason());
      assertEquals("Failed to upgrade after 1 attempt(s)", stalled.getMessage());
      HelmReleaseStatus status = HelmReleases.release("podinfo").getStatus();
      Condition remediated = condition(status, "Remediated");
      assertEquals("True RollbackSucceeded", remediated.getStatus() + " " + remediated.getReason());
      Condition released = condition(status, "Released");
      assertEquals("False UpgradeFailed", released.getStatus() + " " + released.getReason());
      assertTrue(released.getMessage().contains("timeout waiting for"), released.getMessage());
      assertTrue(released.getMessage().contains("Deployment"), released.getMessage());
      assertEquals(1L, status.upgradeFailures());

      assertEquals(List.of("1 superseded", "2 failed", "3 deployed"), helm.history());
      List<String> descriptions = descriptions(helm, "podinfo");
      assertTrue(descriptions.get(1).startsWith("Upgrade \"podinfo\" failed: timeout waiting for"));
      assertEquals("Rollback to 1", descriptions.get(2));
      // the rollback re-applied revision 1: one replica again
      assertEquals(1, HelmReleases.deployment("podinfo").getSpec().getReplicas());
    }
  }

  @Test
  void anInstallThatFailsIsUninstalledAfterEachFailureAndStallsAfterItsRetries(
      ClusterAccess cluster, @TempDir Path home) throws Exception {
    HelmReleaseIT.Helm helm = HelmReleases.helm(cluster, home);
    try (IndexServer served = HelmReleases.chartServed("failing-charts")) {
      HelmReleaseIT.create(
          "helm.capstan.dev/v2",
          "HelmRelease",
          "failing",
          """
            interval: 10m
            timeout: 5s
            chart:
              metadata:
                labels: {%s: %s}
              spec:
                chart: podinfo
                interval: 1m
                sourceRef: {kind: HelmRepository, name: failing-charts}
            install:
              remediation: {retries: 1, remediateLastFailure: true}
            healthCheckExprs:
              - apiVersion: apps/v1
                kind: Deployment
                current: "false"
                failed: "true"
          """
              .formatted(EngineFixture.SHARD_LABEL, engine.shard));

      Condition stalled = HelmReleases.await("failing", "Stalled", EngineTestBase::isTrue);
      assertEquals("RetriesExceeded", stalled.getReason());
      assertEquals("Failed to install after 2 attempt(s)", stalled.getMessage());
      HelmReleaseStatus status = HelmReleases.release("failing").getStatus();
      Condition remediated = condition(status, "Remediated");
      assertEquals(
          "True UninstallSucceeded", remediated.getStatus() + " " + remediated.getReason());
      assertEquals(2L, status.installFailures());
      // uninstalled: no object, no release record
      assertNull(HelmReleases.deployment("failing-podinfo"));
      assertNull(HelmReleases.deployment("failing"));
      assertTrue(helm.list().stream().noneMatch(r -> r.startsWith("failing ")), "helm list");
      assertEquals(
          List.of(),
          client()
              .secrets()
              .inNamespace(ns())
              .withLabels(Map.of("owner", "helm", "name", "failing"))
              .list()
              .getItems());
    }
  }

  private static List<String> descriptions(HelmReleaseIT.Helm helm, String release)
      throws Exception {
    List<String> seen = new ArrayList<>();
    for (JsonNode entry : helm.json("history", release)) {
      seen.add(entry.path("description").asText());
    }
    return seen;
  }

  private static Condition condition(HelmReleaseStatus status, String type) {
    return HelmReleaseStatuses.condition(status, type).orElseThrow();
  }

  private static KubernetesClient client() {
    return engine.client;
  }
}
