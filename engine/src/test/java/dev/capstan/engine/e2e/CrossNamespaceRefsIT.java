package dev.capstan.engine.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.engine.EngineOptions;
import dev.capstan.engine.conditions.KustomizationStatuses;
import dev.capstan.testing.ClusterAccess;
import dev.capstan.testing.KubernetesCluster;
import dev.capstan.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.Condition;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * An engine run with {@code --no-cross-namespace-refs --default-service-account tenant}: a
 * sourceRef or dependsOn to another namespace stalls with a clear reason, a Kustomization naming no
 * service account acts as the default one of its namespace, and a Kustomization of another
 * namespace that depends on one does not hold its deletion.
 */
@ExtendWith(KubernetesCluster.class)
class CrossNamespaceRefsIT {
  private static EngineFixture engine;
  private static GitFixture git;
  private static String other;

  @BeforeAll
  static void start(ClusterAccess cluster, TestNamespace namespace, @TempDir Path repo) {
    engine =
        EngineFixture.start(
            EngineFixture.client(cluster.kubeconfig()),
            namespace.name(),
            o -> o.withTenancy(new EngineOptions.Tenancy(Optional.of("tenant"), true)));
    git = GitFixture.create(repo);
  }

  @AfterAll
  static void stop() {
    try {
      if (other != null) {
        // Before the engine stops: it removes the finalizer of the Kustomization it stalled.
        engine.client.resources(Kustomization.class).inNamespace(other).delete();
        EngineFixture.eventually(Duration.ofSeconds(60))
            .until(
                () ->
                    engine
                        .client
                        .resources(Kustomization.class)
                        .inNamespace(other)
                        .list()
                        .getItems()
                        .isEmpty());
        engine.client.namespaces().withName(other).delete();
      }
    } finally {
      engine.close();
      git.close();
    }
  }

  @Test
  void aSourceInAnotherNamespaceIsRefusedAndTheDefaultServiceAccountActs() {
    String ns = engine.namespace;
    other = Tenants.namespace(engine.client, "capstan-xns");
    Tenants.configMapTenant(engine.client, ns, "tenant");
    git.commit(
        Map.of(
            "app/own.yaml", Tenants.configMapIn(ns, "own"),
            "outside/elsewhere.yaml", Tenants.configMapIn(other, "elsewhere")));
    engine.gitRepository("repo", git.url());
    engine.kustomization("app", "repo", "./app", "");
    engine.kustomization("outside", "repo", "./outside", "");
    engine.kustomization("borrower", other, ns, "repo", "./app", "");

    Condition borrower = awaitReady("borrower", other, c -> "AccessDenied".equals(c.getReason()));
    assertEquals("False", borrower.getStatus());
    assertEquals(
        "cross-namespace references are not allowed: sourceRef GitRepository '"
            + ns
            + "/repo' is not in namespace '"
            + other
            + "'",
        borrower.getMessage());
    assertEquals(
        "True", condition("borrower", other, "Stalled").map(Condition::getStatus).orElse(null));

    awaitReady("app", ns, c -> "True".equals(c.getStatus()));
    assertNotNull(engine.client.configMaps().inNamespace(ns).withName("own").get());
    Condition outside = awaitReady("outside", ns, c -> "ApplyFailed".equals(c.getReason()));
    assertTrue(
        outside.getMessage().contains("forbidden")
            && outside.getMessage().contains("system:serviceaccount:" + ns + ":tenant"),
        outside.getMessage());
    assertNull(engine.client.configMaps().inNamespace(other).withName("elsewhere").get());
  }

  @Test
  void aDependencyInAnotherNamespaceIsRefusedBeforeItIsRead() {
    String ns = engine.namespace;
    String foreign = Tenants.namespace(engine.client, "capstan-xdep");
    try {
      git.commit(Map.of("dep/own.yaml", Tenants.configMapIn(ns, "dep-own")));
      engine.gitRepository("repo-dep", git.url());
      engine.kustomization(
          "leaning",
          "repo-dep",
          "./dep",
          """
            dependsOn:
            - name: somebody-else
              namespace: %s
              readyExpr: "dep.spec.path != ''"
          """
              .formatted(foreign));

      Condition leaning = awaitReady("leaning", ns, c -> "AccessDenied".equals(c.getReason()));
      assertEquals("False", leaning.getStatus());
      assertEquals(
          "cross-namespace references are not allowed: dependsOn Kustomization '"
              + foreign
              + "/somebody-else' is not in namespace '"
              + ns
              + "'",
          leaning.getMessage());
      assertEquals(
          "True", condition("leaning", ns, "Stalled").map(Condition::getStatus).orElse(null));
      assertNull(engine.client.configMaps().inNamespace(ns).withName("dep-own").get());
    } finally {
      engine.client.namespaces().withName(foreign).delete();
    }
  }

  @Test
  void aDependentInAnotherNamespaceDoesNotHoldADeletion() {
    String ns = engine.namespace;
    String tenant = Tenants.namespace(engine.client, "capstan-xhold");
    Tenants.configMapTenant(engine.client, ns, "tenant");
    git.commit(Map.of("victim/cm.yaml", Tenants.configMapIn(ns, "victim-own")));
    engine.gitRepository("repo-victim", git.url());
    engine.kustomization("victim", "repo-victim", "./victim", "  timeout: 10m\n");
    HoldingDependent holder =
        HoldingDependent.create(engine, tenant, "holder", ns, "victim", "repo-victim", "./victim");
    try {
      awaitReady("victim", ns, c -> "True".equals(c.getStatus()));
      awaitReady("holder", tenant, c -> "AccessDenied".equals(c.getReason()));
      holder.deleteAndHold();

      long start = System.nanoTime();
      engine.client.resources(Kustomization.class).inNamespace(ns).withName("victim").delete();
      EngineFixture.eventually(Duration.ofSeconds(60))
          .until(
              () ->
                  engine
                          .client
                          .resources(Kustomization.class)
                          .inNamespace(ns)
                          .withName("victim")
                          .get()
                      == null);
      Duration took = Duration.ofNanos(System.nanoTime() - start);
      assertTrue(
          took.compareTo(Duration.ofSeconds(30)) < 0,
          "the victim's deletion waited " + took + " for a dependent the rules refuse");
      assertNull(engine.client.configMaps().inNamespace(ns).withName("victim-own").get());
    } finally {
      holder.release();
      engine.client.namespaces().withName(tenant).delete();
    }
  }

  private static Optional<Condition> condition(String name, String namespace, String type) {
    Kustomization ks =
        engine.client.resources(Kustomization.class).inNamespace(namespace).withName(name).get();
    return KustomizationStatuses.condition(ks.getStatus(), type);
  }

  private static Condition awaitReady(String name, String namespace, Predicate<Condition> test) {
    EngineFixture.eventually(Duration.ofSeconds(60))
        .until(() -> condition(name, namespace, "Ready").filter(test).isPresent());
    return condition(name, namespace, "Ready").orElseThrow();
  }
}
