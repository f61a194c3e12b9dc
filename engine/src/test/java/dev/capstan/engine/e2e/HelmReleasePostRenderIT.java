package dev.capstan.engine.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.source.helm.IndexServer;
import dev.capstan.testing.ClusterAccess;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A HelmRelease of podinfo's real chart with a post-renderer (a patch and an image tag) and
 * commonMetadata: both are on the objects in the cluster, and a change of commonMetadata alone
 * upgrades the release to its next version, as the real {@code helm history} shows.
 */
class HelmReleasePostRenderIT extends EngineTestBase {

  @Test
  void postRenderersAndCommonMetadataAreOnTheObjectsAndAChangeUpgrades(
      ClusterAccess cluster, @TempDir Path home) throws Exception {
    HelmReleaseIT.Helm helm = HelmReleases.helm(cluster, home);
    try (IndexServer served = HelmReleases.chartServed("charts")) {
      HelmReleaseIT.create(
          "helm.capstan.dev/v2",
          "HelmRelease",
          "podinfo",
          """
            interval: 10m
            chart:
              metadata:
                labels: {%s: %s}
              spec:
                chart: podinfo
                interval: 1m
                sourceRef: {kind: HelmRepository, name: charts}
            postRenderers:
              - kustomize:
                  patches:
                    - target: {kind: Deployment, name: podinfo}
                      patch: |
                        apiVersion: apps/v1
                        kind: Deployment
                        metadata:
                          name: podinfo
                          annotations:
                            patched-by: post-renderer
                  images:
                    - name: ghcr.io/stefanprodan/podinfo
                      newTag: 6.5.1-patched
            commonMetadata:
              labels: {team: payments}
              annotations: {owner: payments@example.com}
          """
              .formatted(EngineFixture.SHARD_LABEL, engine.shard));

      HelmReleases.await(
          "podinfo", "Ready", c -> isTrue(c) && "InstallSucceeded".equals(c.getReason()));
      Deployment deployment = HelmReleases.deployment("podinfo");
      assertEquals("post-renderer", deployment.getMetadata().getAnnotations().get("patched-by"));
      String image = deployment.getSpec().getTemplate().getSpec().getContainers().get(0).getImage();
      assertTrue(image.endsWith(":6.5.1-patched"), image);
      assertEquals("payments", deployment.getMetadata().getLabels().get("team"));
      assertEquals("payments@example.com", deployment.getMetadata().getAnnotations().get("owner"));
      assertEquals("payments", service().getMetadata().getLabels().get("team"));
      // Helm's ownership stays, set after the post-renderers
      assertEquals("Helm", service().getMetadata().getLabels().get("app.kubernetes.io/managed-by"));
      String digest = HelmReleases.release("podinfo").getStatus().observedCommonMetadataDigest();
      assertTrue(digest.startsWith("sha256:"), digest);

      HelmReleaseIT.patchSpec("{\"commonMetadata\":{\"labels\":{\"team\":\"billing\"}}}");
      HelmReleases.await(
          "podinfo", "Ready", c -> isTrue(c) && c.getMessage().contains("podinfo.v2"));
      assertEquals(List.of("1 superseded", "2 deployed"), helm.history());
      assertEquals("billing", service().getMetadata().getLabels().get("team"));
      assertEquals(
          "billing", HelmReleases.deployment("podinfo").getMetadata().getLabels().get("team"));
      assertNotEquals(
          digest, HelmReleases.release("podinfo").getStatus().observedCommonMetadataDigest());
    }
  }

  private static Service service() {
    return engine.client.services().inNamespace(ns()).withName("podinfo").get();
  }
}
