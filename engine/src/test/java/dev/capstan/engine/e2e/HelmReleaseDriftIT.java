package dev.capstan.engine.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.api.helm.HelmRelease;
import dev.capstan.source.helm.IndexServer;
import dev.capstan.testing.ClusterAccess;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code spec.driftDetection} of a HelmRelease of podinfo's real chart: a Deployment scaled by hand
 * (a patch by another field manager, as {@code kubectl scale} or {@code edit} makes one) is
 * reported and left so in mode {@code warn}, and scaled back in place in mode {@code enabled}, with
 * no new release record (a new mode is no new release either, as with Flux); a field {@code ignore}
 * names is neither drift nor written back by the correction, but an upgrade applies the chart's
 * value of it. {@code spec.timeout} is long, so that the health of the objects never times out
 * against the install's deadline while the test runs.
 */
class HelmReleaseDriftIT extends EngineTestBase {
  private static final String IGNORED = "/spec/strategy/rollingUpdate/maxUnavailable";

  @Test
  void driftIsReportedInWarnModeAndCorrectedInPlaceWhenEnabled(
      ClusterAccess cluster, @TempDir Path home) throws Exception {
    HelmReleaseIT.Helm helm = HelmReleases.helm(cluster, home);
    try (IndexServer served = HelmReleases.chartServed("charts")) {
      HelmReleaseIT.create(
          "helm.capstan.dev/v2",
          "HelmRelease",
          "podinfo",
          """
            interval: 10m
            timeout: 30m
            chart:
              metadata:
                labels: {%s: %s}
              spec:
                chart: podinfo
                interval: 1m
                sourceRef: {kind: HelmRepository, name: charts}
            values:
              replicaCount: 1
            driftDetection:
              mode: warn
              ignore:
                - paths: [%s]
                  target: {kind: Deployment}
          """
              .formatted(EngineFixture.SHARD_LABEL, engine.shard, IGNORED));
      HelmReleases.await(
          "podinfo", "Ready", c -> isTrue(c) && "InstallSucceeded".equals(c.getReason()));
      HelmReleases.await("podinfo", "Drifted", c -> "NoDriftDetected".equals(c.getReason()));
      int chartsMaxUnavailable = maxUnavailable();

      editByHand(2, chartsMaxUnavailable + 1);
      Condition drifted =
          HelmReleases.await("podinfo", "Drifted", c -> "DriftDetected".equals(c.getReason()));
      assertTrue(isTrue(drifted));
      assertEquals(
          "1 object drifted: Deployment/" + ns() + "/podinfo: /spec/replicas",
          drifted.getMessage());
      assertFalse(drifted.getMessage().contains("maxUnavailable"), drifted.getMessage());
      HelmReleases.await("podinfo", "Ready", EngineTestBase::isTrue);
      assertEquals(2, HelmReleases.deployment("podinfo").getSpec().getReplicas());
      assertEquals(List.of("1 deployed"), helm.history());

      // as with Flux, a new drift detection mode is no new release: the next look corrects the
      // drift in place, leaving the ignored field as the hand edit left it
      HelmReleaseIT.patchSpec(
          """
          {"driftDetection": {"mode": "enabled", "ignore": [
            {"paths": ["%s"], "target": {"kind": "Deployment"}}]}}
          """
              .formatted(IGNORED));
      Condition correctedFirst =
          HelmReleases.await("podinfo", "Drifted", c -> "DriftCorrected".equals(c.getReason()));
      assertEquals("False", correctedFirst.getStatus());
      assertEquals(1, HelmReleases.deployment("podinfo").getSpec().getReplicas());
      assertEquals(chartsMaxUnavailable + 1, maxUnavailable());
      HelmReleases.await("podinfo", "Ready", EngineTestBase::isTrue);
      assertEquals(List.of("1 deployed"), helm.history());

      // an upgrade (new values: v2) applies the chart's value of the field drift detection ignores
      HelmReleaseIT.patchSpec("{\"values\":{\"replicaCount\":1,\"ui\":{\"message\":\"v2\"}}}");
      HelmReleases.await(
          "podinfo", "Ready", c -> isTrue(c) && c.getMessage().contains("podinfo.v2"));
      HelmReleases.await("podinfo", "Drifted", c -> "NoDriftDetected".equals(c.getReason()));
      assertEquals(1, HelmReleases.deployment("podinfo").getSpec().getReplicas());
      assertEquals(chartsMaxUnavailable, maxUnavailable());

      editByHand(3, chartsMaxUnavailable + 2);
      Condition corrected =
          HelmReleases.await("podinfo", "Drifted", c -> "DriftCorrected".equals(c.getReason()));
      assertEquals("False", corrected.getStatus());
      assertEquals(
          "corrected: 1 object drifted: Deployment/" + ns() + "/podinfo: changed in the cluster",
          corrected.getMessage());
      Deployment deployment = HelmReleases.deployment("podinfo");
      assertEquals(1, deployment.getSpec().getReplicas());
      // the ignored field is as the hand edit left it through the correction
      assertEquals(chartsMaxUnavailable + 2, maxUnavailable());
      HelmReleases.await("podinfo", "Ready", EngineTestBase::isTrue);
      assertEquals(List.of("1 superseded", "2 deployed"), helm.history());
    }
  }

  private static int maxUnavailable() {
    return HelmReleases.deployment("podinfo")
        .getSpec()
        .getStrategy()
        .getRollingUpdate()
        .getMaxUnavailable()
        .getIntVal();
  }

  /**
   * Scales podinfo and changes the ignored field, as a user's field manager, then asks for a
   * reconcile (the interval is long, so that what a look wrote stays until the test reads it).
   */
  private static void editByHand(int replicas, int maxUnavailable) {
    engine
        .client
        .apps()
        .deployments()
        .inNamespace(ns())
        .withName("podinfo")
        .patch(
            new PatchContext.Builder()
                .withPatchType(PatchType.JSON_MERGE)
                .withFieldManager("kubectl-edit")
                .build(),
            """
            {"spec": {"replicas": %d, "strategy": {"rollingUpdate": {"maxUnavailable": %d}}}}
            """
                .formatted(replicas, maxUnavailable));
    engine.requestReconcile(HelmRelease.class, "podinfo");
  }
}
