package dev.capstan.engine.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.api.helm.HelmRelease;
import dev.capstan.source.helm.IndexServer;
import dev.capstan.testing.RemoteCluster;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code spec.kubeConfig} of a HelmRelease: the release's objects and its Helm storage Secrets are
 * on a second, real control plane, and the engine's own cluster holds only the HelmRelease, its
 * chart source and its status. Its health is waited for and watched there, an upgrade happens
 * there, and deleting the HelmRelease uninstalls there. A kubeconfig that cannot be used says why
 * on Ready, names the Secret and key and not its content, and installs nothing anywhere.
 */
@ExtendWith(RemoteCluster.class)
class HelmReleaseRemoteClusterIT extends EngineTestBase {
  /** Within a watch's notice and a reconcile, with room for a loaded machine. */
  private static final Duration SOON = Duration.ofSeconds(90);

  private static RemoteCluster.Access remote;

  @BeforeAll
  static void secondCluster(RemoteCluster.Access access) {
    remote = access;
    remote.ensureNamespace(ns());
  }

  @AfterAll
  static void deleteRemoteNamespace() {
    if (remote != null) {
      remote.client().namespaces().withName(ns()).delete();
    }
  }

  @Test
  void installsUpgradesWatchesAndUninstallsOnTheRemoteClusterOnly() throws Exception {
    kubeconfigSecret("remote-kubeconfig", remote.kubeconfigText());
    try (IndexServer served = HelmReleases.chartServed("remote-charts")) {
      release("remote", "remote-charts", "remote-kubeconfig");
      Condition installed =
          HelmReleases.await(
              "remote", "Ready", c -> isTrue(c) && "InstallSucceeded".equals(c.getReason()));
      assertTrue(installed.getMessage().contains("podinfo@1.0.0"), installed.getMessage());
      Deployment web = deployment(remote.client());
      assertNotNull(web, "the release's Deployment is on the remote cluster");
      assertNotNull(storage(remote.client(), 1), "its release record is on the remote cluster");
      assertNull(deployment(engine.client), "nothing is installed in the engine's own cluster");
      assertNull(storage(engine.client, 1));
      // The wait was satisfied by the remote Deployment's rollout: there is no other.
      assertEquals(1, web.getStatus().getAvailableReplicas());
      HelmReleases.await("remote", "Healthy", EngineTestBase::isTrue);

      // The health monitor watches the remote cluster: a rollout no node can take is seen there.
      nodeSelector("{\"capstan.dev/no-such-node\":\"true\"}");
      Condition unhealthy =
          HelmReleases.awaitWithin("remote", "Healthy", SOON, EngineTestBase::isFalse);
      assertTrue(
          unhealthy.getMessage().contains("Deployment/" + ns() + "/remote-podinfo"),
          unhealthy.getMessage());
      nodeSelector("null");
      HelmReleases.awaitWithin("remote", "Healthy", SOON, EngineTestBase::isTrue);

      // An upgrade happens there too, as version 2 of the release.
      engine
          .client
          .resources(HelmRelease.class)
          .inNamespace(ns())
          .withName("remote")
          .patch(
              PatchContext.of(PatchType.JSON_MERGE),
              "{\"spec\":{\"values\":{\"replicaCount\":2}}}");
      HelmReleases.await(
          "remote", "Ready", c -> isTrue(c) && "UpgradeSucceeded".equals(c.getReason()));
      assertEquals(2, deployment(remote.client()).getSpec().getReplicas());
      assertNotNull(storage(remote.client(), 2));
      assertNull(storage(engine.client, 2));
      assertNull(deployment(engine.client));

      // Deleting the HelmRelease uninstalls it on the remote cluster.
      engine.client.resources(HelmRelease.class).inNamespace(ns()).withName("remote").delete();
      EngineFixture.eventually(Duration.ofSeconds(90))
          .untilAsserted(
              () -> {
                assertNull(HelmReleases.release("remote"));
                assertNull(deployment(remote.client()));
                assertNull(storage(remote.client(), 1));
                assertNull(storage(remote.client(), 2));
              });
    }
  }

  @Test
  void aKubeconfigThatCannotBeUsedSaysWhereAndInstallsNothing() throws Exception {
    kubeconfigSecret("bad-kubeconfig", "clusters: [this is: {not a kubeconfig");
    try (IndexServer served = HelmReleases.chartServed("bad-charts")) {
      release("bad", "bad-charts", "bad-kubeconfig");
      Condition malformed =
          HelmReleases.await("bad", "Ready", c -> "RESTClientError".equals(c.getReason()));
      assertEquals("False", malformed.getStatus());
      assertTrue(
          malformed.getMessage().contains("Secret '" + ns() + "/bad-kubeconfig' key 'value'"),
          malformed.getMessage());
      assertFalse(malformed.getMessage().contains("this is"), malformed.getMessage());

      // An API server that cannot be reached: retried, with its own reason.
      kubeconfigSecret(
          "bad-kubeconfig",
          remote
              .kubeconfigText()
              .replaceFirst("server: https://127\\.0\\.0\\.1:\\d+", "server: https://127.0.0.1:1"));
      // Nothing watches a HelmRelease's kubeconfig Secret: a reconcile is asked for, as a user
      // would after changing it.
      engine.requestReconcile(HelmRelease.class, "bad");
      Condition unreachable =
          HelmReleases.await(
              "bad",
              "Ready",
              c ->
                  "RESTClientError".equals(c.getReason())
                      && c.getMessage().contains("cannot be reached"));
      assertTrue(
          unreachable.getMessage().contains("Secret '" + ns() + "/bad-kubeconfig' key 'value'"),
          unreachable.getMessage());
      assertFalse(unreachable.getMessage().contains("client-key-data"), unreachable.getMessage());
      assertNull(deployment(engine.client, "bad-podinfo"), "never installed in the engine's own");
      assertNull(deployment(remote.client(), "bad-podinfo"));

      // A Secret that does not exist is named as such.
      engine.client.secrets().inNamespace(ns()).withName("bad-kubeconfig").delete();
      engine.requestReconcile(HelmRelease.class, "bad");
      Condition missing =
          HelmReleases.await(
              "bad",
              "Ready",
              c -> "RESTClientError".equals(c.getReason()) && c.getMessage().contains("not found"));
      assertTrue(
          missing.getMessage().contains("Secret '" + ns() + "/bad-kubeconfig'"),
          missing.getMessage());
      assertNull(storage(engine.client, "bad", 1));

      // Never installed: deleting it reaches no cluster, and its finalizer is let go.
      engine.client.resources(HelmRelease.class).inNamespace(ns()).withName("bad").delete();
      EngineFixture.eventually(Duration.ofSeconds(90))
          .untilAsserted(() -> assertNull(HelmReleases.release("bad")));
    }
  }

  /** A HelmRelease of podinfo served by {@code charts}, on the remote cluster of {@code secret}. */
  private static void release(String name, String charts, String secret) {
    HelmReleaseIT.create(
        "helm.capstan.dev/v2",
        "HelmRelease",
        name,
        """
          interval: 1h
          timeout: 3m
          kubeConfig: {secretRef: {name: %s}}
          chart:
            metadata:
              labels: {%s: %s}
            spec:
              chart: podinfo
              interval: 1m
              sourceRef: {kind: HelmRepository, name: %s}
          values:
            replicaCount: 1
        """
            .formatted(secret, EngineFixture.SHARD_LABEL, engine.shard, charts));
  }

  private static void kubeconfigSecret(String name, String kubeconfig) {
    engine
        .client
        .secrets()
        .inNamespace(ns())
        .resource(
            new SecretBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withStringData(Map.of("value", kubeconfig))
                .build())
        .serverSideApply();
  }

  private static Deployment deployment(KubernetesClient cluster) {
    return deployment(cluster, "remote-podinfo");
  }

  private static Deployment deployment(KubernetesClient cluster, String name) {
    return cluster.apps().deployments().inNamespace(ns()).withName(name).get();
  }

  /** Helm's storage Secret of version {@code version} of release "remote". */
  private static Object storage(KubernetesClient cluster, int version) {
    return storage(cluster, "remote", version);
  }

  private static Object storage(KubernetesClient cluster, String release, int version) {
    return cluster
        .secrets()
        .inNamespace(ns())
        .withName("sh.helm.release.v1." + release + ".v" + version)
        .get();
  }

  /** Sets (or with {@code null}, removes) the remote Deployment's pod nodeSelector by hand. */
  private static void nodeSelector(String selector) {
    remote
        .client()
        .apps()
        .deployments()
        .inNamespace(ns())
        .withName("remote-podinfo")
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            "{\"spec\":{\"template\":{\"spec\":{\"nodeSelector\":" + selector + "}}}}");
  }
}
