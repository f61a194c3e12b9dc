package dev.capstan.engine.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.api.helm.HelmReleaseStatus;
import dev.capstan.engine.conditions.HelmReleaseStatuses;
import dev.capstan.source.helm.IndexServer;
import dev.capstan.testing.ClusterAccess;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Between reconciles, a released HelmRelease's Healthy condition follows its objects: podinfo's
 * Deployment, made to roll out to a pod no node may run (a nodeSelector no node matches) after the
 * release's wait ended but within its {@code spec.timeout}, turns Healthy False (Progressing)
 * within seconds although the next reconcile is an hour away; set back, it turns Healthy True
 * again. The ended wait is not reopened: Ready and the release's records stay as the install left
 * them.
 */
class HelmReleaseLiveHealthIT extends EngineTestBase {
  private static final Duration SOON = Duration.ofSeconds(30);

  @Test
  void aDeploymentThatStopsRollingOutTurnsHealthyFalseAndBackBetweenReconciles(
      ClusterAccess cluster, @TempDir Path home) throws Exception {
    HelmReleaseIT.Helm helm = HelmReleases.helm(cluster, home);
    try (IndexServer served = HelmReleases.chartServed("live-charts")) {
      HelmReleaseIT.create(
          "helm.capstan.dev/v2",
          "HelmRelease",
          "live",
          """
            interval: 1h
            timeout: 5m
            chart:
              metadata:
                labels: {%s: %s}
              spec:
                chart: podinfo
                interval: 1m
                sourceRef: {kind: HelmRepository, name: live-charts}
            values:
              replicaCount: 1
          """
              .formatted(EngineFixture.SHARD_LABEL, engine.shard));
      HelmReleases.await(
          "live", "Ready", c -> isTrue(c) && "InstallSucceeded".equals(c.getReason()));
      HelmReleases.await("live", "Healthy", EngineTestBase::isTrue);
      HelmReleaseStatus installed = HelmReleases.release("live").getStatus();
      Condition ready = condition(installed, "Ready");
      // well within spec.timeout of the deploy: the ended wait is not reopened by what follows
      nodeSelector("{\"capstan.dev/no-such-node\":\"true\"}");
      Condition unhealthy =
          HelmReleases.awaitWithin("live", "Healthy", SOON, EngineTestBase::isFalse);
      assertEquals("Progressing", unhealthy.getReason());
      assertTrue(
          unhealthy.getMessage().contains("Deployment/" + ns() + "/live-podinfo"),
          unhealthy.getMessage());

      nodeSelector("null");
      HelmReleases.awaitWithin("live", "Healthy", SOON, EngineTestBase::isTrue);

      // no reconcile ran for any of this: no render, no release record, Ready as the install left
      // it
      HelmReleaseStatus now = HelmReleases.release("live").getStatus();
      assertEquals(ready, condition(now, "Ready"));
      assertEquals(installed.history(), now.history());
      assertEquals(
          installed.lastAttemptedReleaseActionDuration(), now.lastAttemptedReleaseActionDuration());
      assertEquals(List.of("1 deployed"), helm.history("live"));
    }
  }

  /** Sets (or with {@code null}, removes) the Deployment's pod template nodeSelector by hand. */
  private static void nodeSelector(String selector) {
    engine
        .client
        .apps()
        .deployments()
        .inNamespace(ns())
        .withName("live-podinfo")
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            "{\"spec\":{\"template\":{\"spec\":{\"nodeSelector\":" + selector + "}}}}");
  }

  private static Condition condition(HelmReleaseStatus status, String type) {
    return HelmReleaseStatuses.condition(status, type).orElseThrow();
  }
}
