package dev.capstan.engine.e2e;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.api.helm.HelmRelease;
import dev.capstan.engine.conditions.HelmReleaseStatuses;
import dev.capstan.source.helm.IndexServer;
import dev.capstan.source.helm.TestCharts;
import dev.capstan.testing.ClusterAccess;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * What the HelmRelease end-to-end tests share beside {@link HelmReleaseIT}'s chart packaging and
 * object creation: podinfo's chart served by a HelmRepository, the real {@code helm}, and waiting
 * for a HelmRelease's condition as a user would look at it.
 */
final class HelmReleases {
  static final Duration WAIT = Duration.ofSeconds(120);

  private HelmReleases() {}

  /** podinfo's chart, version 1.0.0, served by a HelmRepository {@code name} made here. */
  static IndexServer chartServed(String name) throws Exception {
    return chartServed(
        name, Path.of(HelmReleaseIT.script("charts")).resolve("podinfo"), "podinfo", "1.0.0");
  }

  /**
   * The chart in {@code dir}, packaged as {@code chart} at {@code version}, served by a
   * HelmRepository {@code name} made here.
   */
  static IndexServer chartServed(String name, Path dir, String chart, String version)
      throws Exception {
    IndexServer served = IndexServer.http();
    byte[] tgz = HelmReleaseIT.tgz(dir, version, List.of());
    served.serveFile(chart + "-" + version + ".tgz", tgz);
    served.serve(TestCharts.index(chart, Map.of(version, tgz)).getBytes(StandardCharsets.UTF_8));
    HelmReleaseIT.create(
        "source.capstan.dev/v1",
        "HelmRepository",
        name,
        "  url: " + served.url() + "\n  interval: 1m\n");
    return served;
  }

  /** The real {@code helm}, with its own home, against the test cluster. */
  static HelmReleaseIT.Helm helm(ClusterAccess cluster, Path home) throws Exception {
    return new HelmReleaseIT.Helm(
        Path.of(HelmReleaseIT.script("helm")), home, cluster.kubeconfig());
  }

  /** Waits until HelmRelease {@code name}'s condition {@code type} is as wanted; returns it. */
  static Condition await(String name, String type, Predicate<Condition> wanted) {
    return awaitWithin(name, type, WAIT, wanted);
  }

  /** As {@link #await}, failing when it is not so within {@code within}. */
  static Condition awaitWithin(
      String name, String type, Duration within, Predicate<Condition> wanted) {
    Condition[] seen = new Condition[1];
    EngineFixture.eventually(within)
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

  static HelmRelease release(String name) {
    return EngineTestBase.engine
        .client
        .resources(HelmRelease.class)
        .inNamespace(EngineTestBase.ns())
        .withName(name)
        .get();
  }

  static Deployment deployment(String name) {
    return EngineTestBase.engine
        .client
        .apps()
        .deployments()
        .inNamespace(EngineTestBase.ns())
        .withName(name)
        .get();
  }
}
