package dev.capstan.engine.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.capstan.api.helm.HelmRelease;
import dev.capstan.source.helm.IndexServer;
import dev.capstan.testing.ClusterAccess;
import dev.capstan.testing.RepoRoot;
import io.fabric8.kubernetes.api.model.Condition;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * HelmReleases with {@code spec.test} against the real API server (kwok completes the test Job's
 * pod, or it cannot be scheduled and fails) and read back with the real {@code helm}: passing tests
 * make TestSuccess True and the release Ready; a failing test makes TestSuccess and Ready False
 * with TestFailed, counts an install failure and, no retry left, stalls the release while its
 * record stays deployed; with {@code ignoreFailures} the same failure leaves it Ready.
 */
class HelmReleaseTestsIT extends EngineTestBase {

  @Test
  void testsRunAfterTheInstallAndTheirFailureFailsTheReleaseUnlessIgnored(
      ClusterAccess cluster, @TempDir Path home) throws Exception {
    HelmReleaseIT.Helm helm = HelmReleases.helm(cluster, home);
    Path chart = RepoRoot.find().resolve("engine/src/test/resources/helmrelease/tests-chart");
    try (IndexServer served = HelmReleases.chartServed("charts", chart, "tested", "0.1.0")) {
      create("passes", "false", "{enable: true}");
      create("fails", "true", "{enable: true}");
      create("ignored", "true", "{enable: true, ignoreFailures: true}");

      Condition passed =
          HelmReleases.await("passes", "TestSuccess", c -> "True".equals(c.getStatus()));
      assertEquals("TestSucceeded", passed.getReason());
      assertTrue(passed.getMessage().contains("2 test hooks completed"), passed.getMessage());
      HelmReleases.await("passes", "Ready", c -> isTrue(c));
      assertEquals(
          Map.of("passes-smoke", "Succeeded", "passes-checked", "Succeeded"),
          hookPhases(helm.json("status", "passes")));

      Condition failed =
          HelmReleases.await("fails", "TestSuccess", c -> "False".equals(c.getStatus()));
      assertEquals("TestFailed", failed.getReason());
      assertTrue(failed.getMessage().contains("test hook fails-smoke failed"), failed.getMessage());
      HelmReleases.await(
          "fails", "Stalled", c -> isTrue(c) && "RetriesExceeded".equals(c.getReason()));
      Condition notReady = condition(HelmReleases.release("fails"), "Ready");
      assertEquals(
          List.of("False", "TestFailed"), List.of(notReady.getStatus(), notReady.getReason()));
      assertEquals(1L, HelmReleases.release("fails").getStatus().installFailures());
      assertEquals(List.of("1 deployed"), helm.history("fails"));
      assertEquals("Failed", hookPhases(helm.json("status", "fails")).get("fails-smoke"));

      HelmReleases.await("ignored", "TestSuccess", c -> "False".equals(c.getStatus()));
      Condition ready = HelmReleases.await("ignored", "Ready", c -> isTrue(c));
      assertEquals("InstallSucceeded", ready.getReason());
      HelmRelease ignored = HelmReleases.release("ignored");
      assertEquals(null, ignored.getStatus().installFailures());
    }
  }

  private static void create(String name, String failTest, String test) {
    HelmReleaseIT.create(
        "helm.capstan.dev/v2",
        "HelmRelease",
        name,
        """
          interval: 10m
          timeout: 60s
          test: %s
          values: {failTest: %s}
          chart:
            metadata:
              labels: {%s: %s}
            spec:
              chart: tested
              interval: 1m
              sourceRef: {kind: HelmRepository, name: charts}
        """
            .formatted(test, failTest, EngineFixture.SHARD_LABEL, engine.shard));
  }

  private static Condition condition(HelmRelease release, String type) {
    return release.getStatus().conditions().stream()
        .filter(c -> type.equals(c.getType()))
        .findFirst()
        .orElseThrow();
  }

  /** Each hook of a {@code helm status -o json} by name, its last run's phase. */
  private static Map<String, String> hookPhases(JsonNode status) {
    Map<String, String> phases = new HashMap<>();
    for (JsonNode hook : status.path("hooks")) {
      phases.put(hook.path("name").asText(), hook.path("last_run").path("phase").asText());
    }
    return phases;
  }
}
