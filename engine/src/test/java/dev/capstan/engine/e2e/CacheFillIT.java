package dev.capstan.engine.e2e;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.engine.EngineStartFailed;
import dev.capstan.testing.ClusterAccess;
import dev.capstan.testing.KubernetesCluster;
import dev.capstan.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.AsyncBody;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.http.Interceptor;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * An engine whose first lists are refused (its rights applied a moment after it started, as an
 * install applied all at once may do) keeps trying until its caches fill, then reconciles; one that
 * may never list a kind fails its start within the sync timeout, naming the kind.
 */
@ExtendWith(KubernetesCluster.class)
class CacheFillIT {
  private final List<Runnable> cleanups = new ArrayList<>();
  private final String user = "capstan-cache-fill-" + UUID.randomUUID().toString().substring(0, 8);

  @AfterEach
  void cleanUp() {
    for (int i = cleanups.size() - 1; i >= 0; i--) {
      try {
        cleanups.get(i).run();
      } catch (RuntimeException e) {
        System.err.println("cleaning up after CacheFillIT: " + e);
      }
    }
  }

  @Test
  void startsOnceItMayListWhatItWatches(
      KubernetesClient admin, ClusterAccess cluster, TestNamespace namespace, @TempDir Path repo)
      throws Exception {
    grant(admin, "all-but-helmcharts", allButHelmCharts());
    AtomicInteger refused = new AtomicInteger();
    KubernetesClient engineClient = asUser(cluster, refused);
    CompletableFuture<EngineFixture> starting =
        CompletableFuture.supplyAsync(
            () ->
                EngineFixture.start(
                    engineClient,
                    namespace.name(),
                    o -> o.withCacheSyncTimeout(Duration.ofSeconds(90))));
    cleanups.add(() -> starting.thenAccept(EngineFixture::close));
    await().atMost(Duration.ofSeconds(60)).until(() -> refused.get() > 0 || starting.isDone());
    TimeUnit.SECONDS.sleep(2);
    // still trying: neither started without HelmCharts nor given up at the first refusal
    assertFalse(starting.isDone(), () -> "the start ended: " + outcome(starting));

    grant(admin, "helmcharts", helmCharts());
    EngineFixture engine = starting.get(90, TimeUnit.SECONDS);
    try (GitFixture git = GitFixture.create(repo)) {
      git.commit(Map.of("app/cm.yaml", Manifests.configMap("after-rights", "v")));
      engine.gitRepository("repo", git.url());
      engine.kustomization("app", "repo", "./app", "");
      engine.awaitCondition("app", "Ready", Duration.ofSeconds(60), EngineTestBase::isTrue);
      assertNotNull(
          admin.configMaps().inNamespace(namespace.name()).withName("after-rights").get());
    }
  }

  @Test
  void failsItsStartNamingWhatItMayNotList(
      KubernetesClient admin, ClusterAccess cluster, TestNamespace namespace) throws IOException {
    grant(admin, "all-but-helmcharts", allButHelmCharts());
    KubernetesClient engineClient = asUser(cluster, new AtomicInteger());
    EngineStartFailed failed =
        assertThrows(
            EngineStartFailed.class,
            () ->
                EngineFixture.start(
                    engineClient,
                    namespace.name(),
                    o -> o.withCacheSyncTimeout(Duration.ofSeconds(5))));
    assertTrue(failed.getMessage().contains("HelmChart"), failed.getMessage());
    assertTrue(failed.getMessage().contains("could not list and watch"), failed.getMessage());
    assertFalse(failed.getMessage().contains("Kustomization"), failed.getMessage());
  }

  private static String outcome(CompletableFuture<EngineFixture> starting) {
    return starting.handle((fixture, e) -> e == null ? "started" : e.toString()).join();
  }

  /**
   * The admin's client, impersonating this test's user (who has no rights until granted); each
   * HelmChart request refused is counted in {@code refused}.
   */
  private KubernetesClient asUser(ClusterAccess cluster, AtomicInteger refused) throws IOException {
    Path kubeconfig = cluster.kubeconfig();
    Config config =
        Config.fromKubeconfig(null, Files.readString(kubeconfig), kubeconfig.toString());
    Interceptor counting =
        new Interceptor() {
          @Override
          public void after(
              HttpRequest request,
              HttpResponse<?> response,
              AsyncBody.Consumer<List<ByteBuffer>> consumer) {
            if (response.code() == 403 && request.uri().getPath().endsWith("/helmcharts")) {
              refused.incrementAndGet();
            }
          }
        };
    KubernetesClient client =
        new KubernetesClientBuilder()
            .withConfig(new ConfigBuilder(config).withImpersonateUsername(user).build())
            .withHttpClientBuilderConsumer(b -> b.addOrReplaceInterceptor("refusals", counting))
            .build();
    cleanups.add(client::close);
    return client;
  }

  private void grant(KubernetesClient admin, String what, String rules) {
    String name = user + "-" + what;
    admin
        .resource(
            """
            apiVersion: rbac.authorization.k8s.io/v1
            kind: ClusterRole
            metadata: {name: %s}
            rules:
            %s
            """
                .formatted(name, rules))
        .create();
    cleanups.add(() -> admin.resources(ClusterRole.class).withName(name).delete());
    admin
        .resource(
            """
            apiVersion: rbac.authorization.k8s.io/v1
            kind: ClusterRoleBinding
            metadata: {name: %s}
            roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: %s}
            subjects: [{apiGroup: rbac.authorization.k8s.io, kind: User, name: %s}]
            """
                .formatted(name, name, user))
        .create();
    cleanups.add(() -> admin.resources(ClusterRoleBinding.class).withName(name).delete());
  }

  /** Everything the engine reads and writes, but HelmCharts. */
  private static String allButHelmCharts() {
    return """
    - {apiGroups: [""], resources: ["*"], verbs: ["*"]}
    - apiGroups: [apps, coordination.k8s.io, events.k8s.io, apiextensions.k8s.io,
        authorization.k8s.io, kustomize.capstan.dev, helm.capstan.dev]
      resources: ["*"]
      verbs: ["*"]
    - apiGroups: [source.capstan.dev]
      resources: [gitrepositories, gitrepositories/status, ocirepositories,
        ocirepositories/status, helmrepositories, helmrepositories/status, buckets,
        buckets/status, externalartifacts, externalartifacts/status]
      verbs: ["*"]
    """;
  }

  private static String helmCharts() {
    return """
    - apiGroups: [source.capstan.dev]
      resources: [helmcharts, helmcharts/status]
      verbs: ["*"]
    """;
  }
}
