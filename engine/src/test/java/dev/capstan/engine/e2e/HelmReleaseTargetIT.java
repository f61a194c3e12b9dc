package dev.capstan.engine.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.capstan.source.helm.IndexServer;
import dev.capstan.testing.ClusterAccess;
import io.fabric8.kubernetes.api.model.Secret;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A HelmRelease of podinfo's chart given a new release name, as Flux handles it: the release the
 * status recorded is uninstalled first (its objects and its records, so that {@code helm list} no
 * longer shows it), then the chart is installed under the new name as its version 1.
 */
class HelmReleaseTargetIT extends EngineTestBase {

  @Test
  void aNewReleaseNameUninstallsTheOldReleaseThenInstallsTheNewOne(
      ClusterAccess cluster, @TempDir Path home) throws Exception {
    HelmReleaseIT.Helm helm = HelmReleases.helm(cluster, home);
    try (IndexServer served = HelmReleases.chartServed("charts")) {
      HelmReleaseIT.createPodinfoRelease();
      HelmReleases.await(
          "podinfo", "Ready", c -> isTrue(c) && "InstallSucceeded".equals(c.getReason()));
      assertEquals(List.of("podinfo 1 deployed podinfo-1.0.0"), helm.list());
      assertNotNull(HelmReleases.deployment("podinfo"));

      HelmReleaseIT.patchSpec("{\"releaseName\": \"web\"}");

      HelmReleases.await(
          "podinfo",
          "Ready",
          c -> isTrue(c) && c.getMessage().contains("release " + ns() + "/web.v1 "));
      assertEquals(List.of("web 1 deployed podinfo-1.0.0"), helm.list());
      assertEquals(List.of("1 deployed"), helm.history("web"));
      assertNotNull(HelmReleases.deployment("web-podinfo"));
      EngineFixture.eventually(HelmReleases.WAIT)
          .until(() -> HelmReleases.deployment("podinfo") == null);
      List<String> records =
          engine
              .client
              .secrets()
              .inNamespace(ns())
              .withLabel("owner", "helm")
              .list()
              .getItems()
              .stream()
              .map(Secret::getMetadata)
              .map(m -> m.getName())
              .toList();
      assertEquals(List.of("sh.helm.release.v1.web.v1"), records);
      assertNull(HelmReleases.release("podinfo").getStatus().failures());
      assertEquals(
          List.of("web"),
          HelmReleases.release("podinfo").getStatus().history().stream()
              .map(s -> s.name())
              .toList());
    }
  }
}
