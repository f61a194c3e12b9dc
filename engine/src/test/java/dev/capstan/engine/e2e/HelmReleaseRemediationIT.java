package dev.capstan.engine.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.capstan.api.helm.HelmRelease;
import dev.capstan.api.helm.HelmReleaseStatus;
import dev.capstan.engine.conditions.HelmReleaseStatuses;
import dev.capstan.source.helm.IndexServer;
import dev.capstan.source.helm.TestCharts;
import dev.capstan.testing.ClusterAccess;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
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
  private static final Duration WAIT = Duration.ofSeconds(120);

  @Test
  void anUpgradeThatNeverBecomesHealthyIsRolledBackThenStalls(
      ClusterAccess cluster, @TempDir Path home) throws Exception {
    HelmReleaseIT.Helm helm = helm(cluster, home);
    try (IndexServer served = chartServed("charts")) {
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
      await("podinfo", "Ready", c -> isTrue(c) && "InstallSucceeded".equals(c.getReason()));

      // two replicas are never Current by the expression: the wait ends at spec.timeout
      HelmReleaseIT.patchSpec("{\"values\":{\"replicaCount\":2}}");

      Condition stalled = await("podinfo", "Stalled", EngineTestBase::isTrue);
      assertEquals("RetriesExceeded", stalled.getReason());
      assertEquals("Failed to upgrade after 1 attempt(s)", stalled.getMessage());
      HelmReleaseStatus status = release("podinfo").getStatus();
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
      assertEquals(1, deployment("podinfo").getSpec().getReplicas());
    }
  }

  @Test
  void anInstallThatFailsIsUninstalledAfterEachFailureAndStallsAfterItsRetries(
      ClusterAccess cluster, @TempDir Path home) throws Exception {
    HelmReleaseIT.Helm helm = helm(cluster, home);
    try (IndexServer served = chartServed("failing-charts")) {
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

      Condition stalled = await("failing", "Stalled", EngineTestBase::isTrue);
      assertEquals("RetriesExceeded", stalled.getReason());
      assertEquals("Failed to install after 2 attempt(s)", stalled.getMessage());
      HelmReleaseStatus status = release("failing").getStatus();
      Condition remediated = condition(status, "Remediated");
      assertEquals(
          "True UninstallSucceeded", remediated.getStatus() + " " + remediated.getReason());
      assertEquals(2L, status.installFailures());
      // uninstalled: no object, no release record
      assertNull(deployment("failing-podinfo"));
      assertNull(deployment("failing"));
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

  /** podinfo's chart, version 1.0.0, served by a HelmRepository {@code name} made here. */
  private static IndexServer chartServed(String name) throws Exception {
    Path chart = Path.of(HelmReleaseIT.script("charts")).resolve("podinfo");
    IndexServer served = IndexServer.http();
    byte[] tgz = HelmReleaseIT.tgz(chart, "1.0.0", List.of());
    served.serveFile("podinfo-1.0.0.tgz", tgz);
    served.serve(
        TestCharts.index("podinfo", Map.of("1.0.0", tgz)).getBytes(StandardCharsets.UTF_8));
    HelmReleaseIT.create(
        "source.capstan.dev/v1",
        "HelmRepository",
        name,
        "  url: " + served.url() + "\n  interval: 1m\n");
    return served;
  }

  static HelmReleaseIT.Helm helm(ClusterAccess cluster, Path home) throws Exception {
    return new HelmReleaseIT.Helm(
        Path.of(HelmReleaseIT.script("helm")), home, cluster.kubeconfig());
  }

  private static List<String> descriptions(HelmReleaseIT.Helm helm, String release)
      throws Exception {
    List<String> seen = new ArrayList<>();
    for (JsonNode entry : helm.json("history", release)) {
      seen.add(entry.path("description").asText());
    }
    return seen;
  }

  static Condition await(String name, String type, Predicate<Condition> wanted) {
    Condition[] seen = new Condition[1];
    EngineFixture.eventually(WAIT)
        .untilAsserted(
            () -> {
              HelmRelease release = release(name);
              Condition condition =
                  HelmReleaseStatuses.condition(release.getStatus(), type).orElse(null);
              assertTrue(
                  condition != null && wanted.test(condition),
                  () -> "HelmRelease has status " + release.getStatus());
              seen[0] = condition;
            });
    return seen[0];
  }

  private static Condition condition(HelmReleaseStatus status, String type) {
    return HelmReleaseStatuses.condition(status, type).orElseThrow();
  }

  static HelmRelease release(String name) {
    return engine.client.resources(HelmRelease.class).inNamespace(ns()).withName(name).get();
  }

  private static Deployment deployment(String name) {
    return engine.client.apps().deployments().inNamespace(ns()).withName(name).get();
  }

  private static KubernetesClient client() {
    return engine.client;
  }
}
