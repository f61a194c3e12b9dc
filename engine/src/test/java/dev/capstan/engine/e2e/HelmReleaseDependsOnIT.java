package dev.capstan.engine.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.api.source.GitRepository;
import dev.capstan.engine.conditions.HelmReleaseStatuses;
import dev.capstan.source.helm.IndexServer;
import dev.capstan.testing.ClusterAccess;
import io.fabric8.kubernetes.api.model.Condition;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A HelmRelease that depends on a Kustomization waits, installing nothing, while the Kustomization
 * is not Ready, and installs once it is; a Kustomization that depends on the HelmRelease waits in
 * turn and is applied once the release is Ready.
 */
class HelmReleaseDependsOnIT extends EngineTestBase {
  private static final String NO_NODE = "      nodeSelector: {capstan.dev/no-such-node: \"true\"}";

  @Test
  void theReleaseWaitsForInfraAndTheAppWaitsForTheRelease(ClusterAccess cluster, @TempDir Path home)
      throws Exception {
    HelmReleaseIT.Helm helm = HelmReleases.helm(cluster, home);
    git.commit(
        Map.of(
            "infra/db.yaml", Manifests.deployment("db", NO_NODE, 600),
            "app/config.yaml", Manifests.configMap("app-settings", "x")));
    engine.gitRepository("repo", git.url());
    engine.kustomization("infra", "repo", "./infra", "  wait: true\n  timeout: 10m");
    engine.kustomization(
        "app",
        "repo",
        "./app",
        "  dependsOn: [{apiVersion: helm.capstan.dev/v2, kind: HelmRelease, name: podinfo}]");
    try (IndexServer served = HelmReleases.chartServed("charts")) {
      HelmReleaseIT.create(
          "helm.capstan.dev/v2",
          "HelmRelease",
          "podinfo",
          """
            interval: 10m
            dependsOn:
              - {apiVersion: kustomize.capstan.dev/v1, kind: Kustomization, name: infra}
            chart:
              metadata:
                labels: {%s: %s}
              spec:
                chart: podinfo
                interval: 1m
                sourceRef: {kind: HelmRepository, name: charts}
          """
              .formatted(EngineFixture.SHARD_LABEL, engine.shard));

      Condition held =
          HelmReleases.await("podinfo", "Ready", c -> "DependencyNotReady".equals(c.getReason()));
      assertEquals("False", held.getStatus());
      assertTrue(
          held.getMessage()
              .startsWith("dependency 'kustomize.capstan.dev/v1/Kustomization/" + ns() + "/infra'"),
          held.getMessage());
      // infra applies and then waits for its Deployment, which cannot schedule: still held
      engine.awaitCondition(
          "infra", "Ready", Duration.ofSeconds(60), c -> "Unknown".equals(c.getStatus()));
      // held for a while, not at one instant: Ready stays DependencyNotReady, nothing installed
      EngineFixture.eventually(Duration.ofSeconds(20))
          .during(Duration.ofSeconds(5))
          .until(
              () ->
                  "DependencyNotReady".equals(readyReason())
                      && HelmReleases.deployment("podinfo") == null
                      && helm.list().isEmpty());
      Condition appHeld =
          engine.awaitCondition(
              "app",
              "Ready",
              Duration.ofSeconds(60),
              c -> "DependencyNotReady".equals(c.getReason()));
      assertTrue(
          appHeld.getMessage().contains("helm.capstan.dev/v2/HelmRelease/" + ns() + "/podinfo"),
          appHeld.getMessage());

      git.commit(Map.of("infra/db.yaml", Manifests.deployment("db", "", 600)));
      engine.requestReconcile(GitRepository.class, "repo");
      engine.awaitCondition("infra", "Ready", Duration.ofSeconds(90), EngineTestBase::isTrue);
      // looked at again at the dependency requeue (30s), then installed
      HelmReleases.await(
          "podinfo", "Ready", c -> isTrue(c) && "InstallSucceeded".equals(c.getReason()));
      assertEquals(List.of("podinfo 1 deployed podinfo-1.0.0"), helm.list());
      engine.awaitCondition("app", "Ready", Duration.ofSeconds(90), EngineTestBase::isTrue);
      assertEquals(
          "x",
          engine
              .client
              .configMaps()
              .inNamespace(ns())
              .withName("app-settings")
              .get()
              .getData()
              .get("value"));
    }
  }

  private static String readyReason() {
    return HelmReleaseStatuses.condition(HelmReleases.release("podinfo").getStatus(), "Ready")
        .map(Condition::getReason)
        .orElse(null);
  }
}
