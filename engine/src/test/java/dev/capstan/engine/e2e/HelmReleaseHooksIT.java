package dev.capstan.engine.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.capstan.source.helm.IndexServer;
import dev.capstan.testing.ClusterAccess;
import dev.capstan.testing.RepoRoot;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A HelmRelease of a small chart with hooks, against the real API server (kwok completes the Jobs'
 * pods) and read back with the real {@code helm}: its pre-install Job completes before the
 * Deployment is created and its ConfigMap hook is written, both kept out of the inventory, the
 * record keeps each hook's last run; an upgrade whose pre-upgrade Job fails fails by the hook's
 * name, before its objects change.
 */
class HelmReleaseHooksIT extends EngineTestBase {

  @Test
  void preInstallHooksCompleteBeforeTheObjectsAndAFailingHookFailsTheUpgrade(
      ClusterAccess cluster, @TempDir Path home) throws Exception {
    HelmReleaseIT.Helm helm = HelmReleases.helm(cluster, home);
    Path chart = RepoRoot.find().resolve("engine/src/test/resources/helmrelease/hooks-chart");
    try (IndexServer served = HelmReleases.chartServed("charts", chart, "hooks", "0.1.0")) {
      HelmReleaseIT.create(
          "helm.capstan.dev/v2",
          "HelmRelease",
          "hooks",
          """
            interval: 10m
            timeout: 60s
            chart:
              metadata:
                labels: {%s: %s}
              spec:
                chart: hooks
                interval: 1m
                sourceRef: {kind: HelmRepository, name: charts}
          """
              .formatted(EngineFixture.SHARD_LABEL, engine.shard));

      HelmReleases.await(
          "hooks", "Ready", c -> isTrue(c) && "InstallSucceeded".equals(c.getReason()));
      Job prepare = job("prepare");
      assertTrue(
          prepare.getStatus().getConditions().stream()
              .anyMatch(c -> "Complete".equals(c.getType()) && "True".equals(c.getStatus())),
          () -> "Job prepare has status " + prepare.getStatus());
      Deployment app = HelmReleases.deployment("app");
      Instant completed = Instant.parse(prepare.getStatus().getCompletionTime());
      Instant created = Instant.parse(app.getMetadata().getCreationTimestamp());
      assertFalse(completed.isAfter(created), completed + " is after " + created);
      ConfigMap prepared = engine.client.configMaps().inNamespace(ns()).withName("prepared").get();
      assertEquals("hooks", prepared.getData().get("release"));
      List<String> inventory =
          HelmReleases.release("hooks").getStatus().inventory().entries().stream()
              .map(e -> e.id())
              .toList();
      assertEquals(List.of(ns() + "_app_apps_Deployment"), inventory);
      assertEquals(List.of("1 deployed"), helm.history("hooks"));
      assertEquals(
          Map.of("prepare", "Succeeded", "prepared", "Succeeded"),
          hookPhases(helm.json("status", "hooks")));

      patchValues("{\"failHook\":true}");
      Condition ready =
          HelmReleases.await(
              "hooks",
              "Ready",
              c ->
                  "False".equals(c.getStatus())
                      && c.getMessage() != null
                      && c.getMessage().contains("pre-upgrade hook Job/fail"));
      assertEquals("UpgradeFailed", ready.getReason());
      assertTrue(ready.getMessage().contains("failed"), ready.getMessage());
      assertEquals(List.of("1 deployed", "2 failed"), helm.history("hooks"));
      assertEquals("Failed", hookPhases(helm.json("status", "hooks")).get("fail"));
    }
  }

  /** Each hook of a {@code helm status -o json} by name, its last run's phase. */
  private static Map<String, String> hookPhases(JsonNode status) {
    Map<String, String> phases = new HashMap<>();
    for (JsonNode hook : status.path("hooks")) {
      phases.put(hook.path("name").asText(), hook.path("last_run").path("phase").asText());
    }
    return phases;
  }

  private static Job job(String name) {
    return engine.client.batch().v1().jobs().inNamespace(ns()).withName(name).get();
  }

  private static void patchValues(String valuesJson) {
    HelmReleaseIT.patchSpecOf("hooks", "{\"values\":" + valuesJson + "}");
  }
}
