package dev.capstan.engine.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.engine.EngineOptions;
import dev.capstan.engine.conditions.KustomizationStatuses;
import dev.capstan.testing.CapstanCrds;
import dev.capstan.testing.ClusterAccess;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * dependsOn on objects other than Kustomizations: a ConfigMap with a readyExpr and a Deployment by
 * its health status hold the dependent until they are ready, and a watch wakes it within seconds
 * (its retryInterval and interval are 10m); a kind the API server does not serve, an object its
 * service account may not read, and another namespace under the lockdown say so.
 */
class DependsOnObjectIT extends EngineTestBase {
  private static final String LONG_RETRY = "  retryInterval: 10m\n";

  /** Far below the 10m retryInterval: only a watch event can wake the dependent this soon. */
  private static final Duration WAKE_UP = Duration.ofSeconds(10);

  /**
   * A test cluster may be shared with test runs of other versions, which install their own CRDs;
   * one without dependsOn's apiVersion and kind would prune them from what the tests create.
   */
  @BeforeEach
  void installTheseCrds() {
    CapstanCrds.install(engine.client);
  }

  @Test
  void aConfigMapWithAReadyExprHoldsTheAppUntilTrue() {
    git.commit(Map.of("flagged/config.yaml", Manifests.configMap("flagged-settings", "x")));
    engine.gitRepository("repo-flags", git.url());
    engine.kustomization(
        "flagged",
        "repo-flags",
        "./flagged",
        LONG_RETRY
            + """
              dependsOn:
              - {apiVersion: v1, kind: ConfigMap, name: flags, readyExpr: "dep.data.ready == 'yes'"}
            """);

    Condition missing =
        engine.awaitCondition(
            "flagged",
            "Ready",
            Duration.ofSeconds(60),
            c -> "DependencyNotReady".equals(c.getReason()));
    assertEquals("False", missing.getStatus());
    assertEquals("dependency 'v1/ConfigMap/" + ns() + "/flags' not found", missing.getMessage());
    assertTrue(
        engine.engine.dependencyWatches().watchedKinds().contains("ConfigMap"),
        "watched while waiting: " + engine.engine.dependencyWatches().watchedKinds());

    Instant created = Instant.now();
    engine
        .client
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName("flags")
                .withNamespace(ns())
                .endMetadata()
                .withData(Map.of("ready", "no"))
                .build())
        .create();
    Condition falseExpr =
        engine.awaitCondition(
            "flagged", "Ready", WAKE_UP, c -> c.getMessage().contains("readyExpr"));
    assertEquals(
        "dependency 'v1/ConfigMap/"
            + ns()
            + "/flags' is not ready: readyExpr 'dep.data.ready == 'yes'' is false",
        falseExpr.getMessage());
    assertTrue(Duration.between(created, Instant.now()).compareTo(WAKE_UP) < 0);
    assertNull(
        engine.client.configMaps().inNamespace(ns()).withName("flagged-settings").get(),
        "not applied yet");

    Instant flipped = Instant.now();
    engine
        .client
        .configMaps()
        .inNamespace(ns())
        .withName("flags")
        .edit(cm -> new ConfigMapBuilder(cm).withData(Map.of("ready", "yes")).build());
    engine.awaitCondition("flagged", "Ready", WAKE_UP, DependsOnObjectIT::pastTheGate);
    Duration wokeAfter = Duration.between(flipped, Instant.now());
    assertTrue(wokeAfter.compareTo(WAKE_UP) < 0, "woke after " + wokeAfter);
    engine.awaitCondition("flagged", "Ready", Duration.ofSeconds(60), EngineTestBase::isTrue);
    assertEquals(
        "x",
        engine
            .client
            .configMaps()
            .inNamespace(ns())
            .withName("flagged-settings")
            .get()
            .getData()
            .get("value"));
    EngineFixture.eventually(Duration.ofSeconds(10))
        .until(() -> !engine.engine.dependencyWatches().watchedKinds().contains("ConfigMap"));
  }

  @Test
  void aDeploymentHoldsTheAppUntilItIsAvailable() {
    engine
        .client
        .resource(
            load(
                Deployment.class,
                Manifests.deployment(
                    "db", "      nodeSelector: {capstan.dev/no-such-node: \"true\"}", 600)))
        .inNamespace(ns())
        .create();
    git.commit(Map.of("web/config.yaml", Manifests.configMap("web-settings", "y")));
    engine.gitRepository("repo-web", git.url());
    engine.kustomization(
        "web",
        "repo-web",
        "./web",
        LONG_RETRY + "  dependsOn: [{apiVersion: apps/v1, kind: Deployment, name: db}]\n");

    Condition held =
        engine.awaitCondition(
            "web",
            "Ready",
            Duration.ofSeconds(60),
            c -> "DependencyNotReady".equals(c.getReason()));
    assertTrue(
        held.getMessage()
            .startsWith("dependency 'apps/v1/Deployment/" + ns() + "/db' is not ready: InProgress"),
        held.getMessage());
    assertNull(
        engine.client.configMaps().inNamespace(ns()).withName("web-settings").get(),
        "not applied yet");

    // Schedulable now: the rollout completes; the app follows within seconds of it, not at its 10m
    // retry.
    engine
        .client
        .apps()
        .deployments()
        .inNamespace(ns())
        .withName("db")
        .patch(
            PatchContext.of(PatchType.JSON),
            "[{\"op\":\"remove\",\"path\":\"/spec/template/spec/nodeSelector\"}]");
    EngineFixture.eventually(Duration.ofSeconds(120))
        .until(
            () -> {
              var status =
                  engine
                      .client
                      .apps()
                      .deployments()
                      .inNamespace(ns())
                      .withName("db")
                      .get()
                      .getStatus();
              return status != null
                  && Integer.valueOf(1).equals(status.getAvailableReplicas())
                  && Integer.valueOf(1).equals(status.getUpdatedReplicas());
            });
    Instant available = Instant.now();
    engine.awaitCondition("web", "Ready", WAKE_UP, DependsOnObjectIT::pastTheGate);
    Duration wokeAfter = Duration.between(available, Instant.now());
    assertTrue(wokeAfter.compareTo(WAKE_UP) < 0, "woke after " + wokeAfter);
    Condition ready =
        engine.awaitCondition("web", "Ready", Duration.ofSeconds(60), EngineTestBase::isTrue);
    assertTrue(ready.getMessage().startsWith("Applied revision: "), ready.getMessage());
    assertEquals(
        "y",
        engine
            .client
            .configMaps()
            .inNamespace(ns())
            .withName("web-settings")
            .get()
            .getData()
            .get("value"));
  }

  @Test
  void aKindTheApiServerDoesNotServeIsAClearWait() {
    git.commit(Map.of("widgets/config.yaml", Manifests.configMap("widget-settings", "z")));
    engine.gitRepository("repo-widgets", git.url());
    engine.kustomization(
        "widgets",
        "repo-widgets",
        "./widgets",
        "  dependsOn: [{apiVersion: example.com/v1, kind: Widget, name: w}]\n");

    Condition held =
        engine.awaitCondition(
            "widgets",
            "Ready",
            Duration.ofSeconds(60),
            c -> "DependencyNotReady".equals(c.getReason()));
    assertEquals(
        "dependency 'example.com/v1/Widget/"
            + ns()
            + "/w' not found: the API server does not serve "
            + "example.com/v1 Widget",
        held.getMessage());
    assertNotEquals(
        "True",
        engine.condition("widgets", "Stalled").map(Condition::getStatus).orElse("False"),
        "a wait, not a terminal failure");
    assertFalse(engine.engine.dependencyWatches().watchedKinds().contains("Widget.example.com"));
  }

  @Test
  void anObjectTheServiceAccountMayNotGetIsNotFound() {
    Tenants.configMapTenant(engine.client, ns(), "cm-tenant");
    engine
        .client
        .resource(load(Deployment.class, Manifests.deployment("hidden", "", 600)))
        .inNamespace(ns())
        .create();
    git.commit(Map.of("tenant/config.yaml", Manifests.configMap("tenant-settings", "t")));
    engine.gitRepository("repo-tenant", git.url());
    engine.kustomization(
        "tenant",
        "repo-tenant",
        "./tenant",
        """
          serviceAccountName: cm-tenant
          dependsOn: [{apiVersion: apps/v1, kind: Deployment, name: hidden}]
        """);

    Condition held =
        engine.awaitCondition(
            "tenant",
            "Ready",
            Duration.ofSeconds(60),
            c -> "DependencyNotReady".equals(c.getReason()));
    assertEquals(
        "dependency 'apps/v1/Deployment/"
            + ns()
            + "/hidden' not found: system:serviceaccount:"
            + ns()
            + ":cm-tenant may not get deployments.apps in namespace "
            + ns(),
        held.getMessage());
    assertNull(engine.client.configMaps().inNamespace(ns()).withName("tenant-settings").get());
  }

  @Test
  void anotherNamespaceIsRefusedUnderTheLockdown(ClusterAccess cluster) {
    try (EngineFixture locked =
        EngineFixture.start(
            EngineFixture.client(cluster.kubeconfig()),
            ns(),
            o -> o.withTenancy(new EngineOptions.Tenancy(Optional.empty(), true)))) {
      git.commit(Map.of("lean/config.yaml", Manifests.configMap("lean-settings", "l")));
      locked.gitRepository("repo-lean", git.url());
      locked.kustomization(
          "leaning",
          "repo-lean",
          "./lean",
          "  dependsOn: [{apiVersion: v1, kind: ConfigMap, name: elsewhere, namespace:"
              + " kube-system}]\n");

      Condition refused =
          locked.awaitCondition(
              "leaning",
              "Ready",
              Duration.ofSeconds(60),
              c -> "AccessDenied".equals(c.getReason()));
      assertEquals(
          "cross-namespace references are not allowed: dependsOn v1 ConfigMap"
              + " 'kube-system/elsewhere' is not in namespace '"
              + ns()
              + "'",
          refused.getMessage());
      assertEquals(
          "True",
          KustomizationStatuses.condition(locked.kustomization("leaning").getStatus(), "Stalled")
              .map(Condition::getStatus)
              .orElse(null));
      assertFalse(
          locked.engine.dependencyWatches().watchedKinds().contains("ConfigMap"),
          "nothing of it is watched");
    }
  }

  /**
   * The dependent went past the dependsOn gate (it goes on to fetch, build and apply, which may
   * take a while on a busy machine and is not what the wake-up is about).
   */
  private static boolean pastTheGate(Condition ready) {
    return !"DependencyNotReady".equals(ready.getReason());
  }

  private static <T extends HasMetadata> T load(Class<T> type, String yaml) {
    return engine
        .client
        .resources(type)
        .load(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8)))
        .item();
  }
}
