package dev.capstan.engine.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.api.helm.HelmRelease;
import dev.capstan.api.source.GitRepository;
import dev.capstan.engine.conditions.HelmReleaseStatuses;
import dev.capstan.engine.pipeline.Backoff;
import dev.capstan.source.helm.TestCharts;
import dev.capstan.testing.ClusterAccess;
import dev.capstan.testing.KubernetesCluster;
import dev.capstan.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * An engine restarted on an empty artifact store (a pod's emptyDir) fetches its sources again under
 * the revisions their statuses already name, so no status changes revision: the Kustomizations that
 * found the artifact missing are woken when it is stored again, not at their next retry. The
 * retries here wait an hour, so only the wake can bring the Kustomization back in the test's time.
 */
@ExtendWith(KubernetesCluster.class)
class ArtifactStoredAgainIT {
  static EngineFixture engine;
  static GitFixture git;

  @BeforeAll
  static void startEngine(ClusterAccess cluster, TestNamespace namespace, @TempDir Path repo) {
    engine =
        EngineFixture.start(
            EngineFixture.client(cluster.kubeconfig()),
            namespace.name(),
            o -> o.withBackoff(new Backoff(Duration.ofHours(1))));
    git = GitFixture.create(repo);
  }

  @AfterAll
  static void stop() {
    if (engine != null) {
      engine.close();
    }
    if (git != null) {
      git.close();
    }
  }

  @Test
  void aKustomizationWaitingForItsArtifactGoesOnWhenTheSourceStoresItAgain() throws Exception {
    String revision =
        git.commit(
            Map.of(
                "app/cm.yaml",
                """
                apiVersion: v1
                kind: ConfigMap
                metadata: {name: stored-again}
                data: {k: v}
                """));
    engine.gitRepository("repo", git.url());
    engine.kustomization("app", "repo", "./app", "  retryInterval: 1h");
    engine.awaitCondition("app", "Ready", Duration.ofSeconds(60), EngineTestBase::isTrue);

    // The source is not fetched while the engine starts again, so the Kustomization's first look
    // finds the artifact its status names missing from the new store.
    suspendSource(true);
    engine.restartWithEmptyStore();
    Condition missing =
        engine.awaitCondition(
            "app", "Ready", Duration.ofSeconds(60), c -> "ArtifactFailed".equals(c.getReason()));
    assertTrue(missing.getMessage().endsWith("is not in local storage"), missing.getMessage());

    suspendSource(false);
    engine.awaitCondition(
        "app",
        "Ready",
        Duration.ofSeconds(60),
        c -> EngineTestBase.isTrue(c) && c.getMessage().contains(revision));
    assertEquals(
        revision, engine.gitRepository("repo").getStatus().artifact().revision(), "same revision");
  }

  @Test
  void aHelmReleaseOfAChartBuiltFromTheSourceGoesOnWhenTheSourceStoresItAgain() throws Exception {
    git.commit(
        Map.of(
            "charts/stored/Chart.yaml",
            TestCharts.chartYaml("stored", "0.1.0"),
            "charts/stored/templates/cm.yaml",
            """
            apiVersion: v1
            kind: ConfigMap
            metadata: {name: chart-stored-again}
            data: {k: v}
            """));
    engine.gitRepository("charts", git.url());
    engine
        .client
        .resource(
            """
            apiVersion: helm.capstan.dev/v2
            kind: HelmRelease
            metadata: {name: stored, namespace: %s, labels: {%s: %s}}
            spec:
              interval: 1h
              chart:
                metadata:
                  labels: {%s: %s}
                spec:
                  chart: ./charts/stored
                  interval: 1h
                  sourceRef: {kind: GitRepository, name: charts}
            """
                .formatted(
                    engine.namespace,
                    EngineFixture.SHARD_LABEL,
                    engine.shard,
                    EngineFixture.SHARD_LABEL,
                    engine.shard))
        .create();
    awaitRelease(EngineTestBase::isTrue);

    // The GitRepository is not fetched while the engine starts again: the HelmChart cannot build
    // the chart (its source's artifact is missing) and the HelmRelease waits for the chart; each
    // would look again only after an hour.
    suspend("charts", true);
    engine.restartWithEmptyStore();
    awaitRelease(c -> !EngineTestBase.isTrue(c));

    suspend("charts", false);
    Condition ready = awaitRelease(EngineTestBase::isTrue);
    assertTrue(ready.getMessage().contains("stored"), ready.getMessage());
  }

  private static Condition awaitRelease(Predicate<Condition> wanted) {
    Condition[] seen = new Condition[1];
    EngineFixture.eventually(Duration.ofSeconds(60))
        .untilAsserted(
            () -> {
              HelmRelease release =
                  engine
                      .client
                      .resources(HelmRelease.class)
                      .inNamespace(engine.namespace)
                      .withName("stored")
                      .get();
              Condition ready =
                  HelmReleaseStatuses.condition(release.getStatus(), "Ready").orElseThrow();
              assertTrue(wanted.test(ready), "HelmRelease stored: " + release.getStatus());
              seen[0] = ready;
            });
    return seen[0];
  }

  private static void suspendSource(boolean suspend) {
    suspend("repo", suspend);
  }

  private static void suspend(String name, boolean suspend) {
    engine
        .client
        .resources(GitRepository.class)
        .inNamespace(engine.namespace)
        .withName(name)
        .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"suspend\":" + suspend + "}}");
  }
}
