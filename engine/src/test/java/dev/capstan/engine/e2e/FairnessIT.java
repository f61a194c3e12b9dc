package dev.capstan.engine.e2e;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.source.GitRepository;
import dev.capstan.engine.conditions.KustomizationStatuses;
import dev.capstan.testing.ClusterAccess;
import dev.capstan.testing.KubernetesCluster;
import dev.capstan.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * One tenant's failing Kustomizations, retrying every second, do not delay another tenant's commit:
 * the reconcile queue is served round-robin across namespaces. With one first-in first-out queue,
 * the other tenant's source fetch and then its Kustomization each wait behind every retry queued
 * before them.
 */
@ExtendWith(KubernetesCluster.class)
class FairnessIT {
  private static final int FAILING = 150;
  private static final int THREADS = 1;
  private static final Duration BOUND = Duration.ofMillis(2500);

  static EngineFixture engine;
  static GitFixture git;
  static String tenantB;

  @BeforeAll
  static void startEngine(ClusterAccess cluster, TestNamespace namespace, @TempDir Path repo) {
    engine =
        EngineFixture.start(
            EngineFixture.client(cluster.kubeconfig()),
            namespace.name(),
            o -> o.withReconcileThreads(THREADS));
    git = GitFixture.create(repo);
    tenantB = Tenants.namespace(engine.client, "capstan-fair-b");
  }

  @AfterAll
  static void stop() {
    if (tenantB != null) {
      engine.client.resources(Kustomization.class).inNamespace(tenantB).delete();
      EngineFixture.eventually(Duration.ofSeconds(60))
          .until(
              () ->
                  engine
                      .client
                      .resources(Kustomization.class)
                      .inNamespace(tenantB)
                      .list()
                      .getItems()
                      .isEmpty());
      engine.client.namespaces().withName(tenantB).delete();
    }
    if (engine != null) {
      engine.close();
    }
    if (git != null) {
      git.close();
    }
  }

  @Test
  void aTenantsRetriesDoNotDelayAnotherTenantsCommit() {
    git.commit(
        Map.of(
            "broken/config.yaml",
            Tenants.configMapIn("capstan-fair-absent", "stranded"),
            "app/config.yaml",
            Manifests.configMap("settings", "one")));
    // Tenant A (the fixture's namespace): every Kustomization builds, has its apply refused by the
    // API server (the object's namespace does not exist) and retries: each retry asks the API
    // server again, as a tenant's broken commit does.
    engine.gitRepository("repo", git.url());
    for (int i = 0; i < FAILING; i++) {
      engine.kustomization("broken-" + i, "repo", "./broken", "  retryInterval: 1s");
    }
    // Tenant B: its own source and one Kustomization, applied once before the flood is measured.
    create(
        GitRepository.class,
        """
        apiVersion: source.capstan.dev/v1
        kind: GitRepository
        metadata: {name: repo, namespace: %s, labels: {%s: %s}}
        spec: {url: "%s", ref: {branch: main}, interval: 10m}
        """
            .formatted(tenantB, EngineFixture.SHARD_LABEL, engine.shard, git.url()));
    engine.kustomization("app", tenantB, tenantB, "repo", "./app", "");
    EngineFixture.eventually(Duration.ofSeconds(120))
        .until(() -> readyOf(tenantB, "app").filter(EngineTestBase::isTrue).isPresent());
    EngineFixture.eventually(Duration.ofSeconds(120))
        .until(
            () -> {
              for (int i = 0; i < FAILING; i++) {
                if (readyOf(engine.namespace, "broken-" + i)
                    .filter(EngineTestBase::isFalse)
                    .isEmpty()) {
                  return false;
                }
              }
              return true;
            });

    String second = git.commit(Map.of("app/config.yaml", Manifests.configMap("settings", "two")));
    Instant asked = Instant.now();
    requestReconcile(tenantB, "repo");
    EngineFixture.eventually(Duration.ofSeconds(60))
        .until(
            () ->
                readyOf(tenantB, "app")
                    .filter(c -> ("Applied revision: " + second).equals(c.getMessage()))
                    .isPresent());
    Duration took = Duration.between(asked, Instant.now());
    System.out.println("FairnessIT: tenant B's commit applied after " + took.toMillis() + " ms");

    assertTrue(
        took.compareTo(BOUND) <= 0,
        "tenant B's commit was applied after "
            + took.toMillis()
            + " ms while tenant A's "
            + FAILING
            + " Kustomizations retried; bound "
            + BOUND.toMillis()
            + " ms");
  }

  private static Optional<Condition> readyOf(String namespace, String name) {
    Kustomization ks =
        engine.client.resources(Kustomization.class).inNamespace(namespace).withName(name).get();
    return ks == null ? Optional.empty() : KustomizationStatuses.condition(ks.getStatus(), "Ready");
  }

  private static void requestReconcile(String namespace, String name) {
    engine
        .client
        .resources(GitRepository.class)
        .inNamespace(namespace)
        .withName(name)
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            "{\"metadata\":{\"annotations\":{\"reconcile.capstan.dev/requestedAt\":\""
                + Instant.now()
                + "\"}}}");
  }

  private static <T extends HasMetadata> void create(Class<T> type, String yaml) {
    T object =
        engine
            .client
            .resources(type)
            .load(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8)))
            .item();
    engine.client.resource(object).create();
  }
}
