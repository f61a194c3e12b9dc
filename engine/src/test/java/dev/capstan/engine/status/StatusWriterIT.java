package dev.capstan.engine.status;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.capstan.api.helm.HelmRelease;
import dev.capstan.api.helm.HelmReleaseStatus;
import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.kustomize.KustomizationStatus;
import dev.capstan.api.source.GitRepository;
import dev.capstan.engine.core.NamespacedName;
import dev.capstan.engine.pipeline.ClusterView;
import dev.capstan.engine.pipeline.PipelineObserver;
import dev.capstan.testing.CapstanCrds;
import dev.capstan.testing.KubernetesCluster;
import dev.capstan.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Status writes on the real API server, each one request: at a thousand Kustomizations, a read
 * before every write was a third of what the engine asked of the API server.
 */
@ExtendWith(KubernetesCluster.class)
class StatusWriterIT {

  @BeforeAll
  static void installCrds(KubernetesClient client) {
    CapstanCrds.install(client);
  }

  @Test
  void aStatusWriteIsOnePatchOfTheStatusAndNothingElse(KubernetesClient admin, TestNamespace ns) {
    Kustomization ks = create(admin, ns.name(), "web");
    List<String> requests = new CopyOnWriteArrayList<>();
    try (KubernetesClient client = recording(admin, requests)) {
      StatusWriter writer = new StatusWriter(client, new NoCache(), PipelineObserver.NONE);

      writer.write(ks, status("ReconciliationSucceeded", "Applied revision: main@sha1:1"));

      assertEquals(
          List.of("PATCH " + path(ns.name(), "web") + "/status"), requests, "requests sent");
      assertEquals("Applied revision: main@sha1:1", readyMessage(admin, ns.name(), "web"));

      requests.clear();
      writer.update(
          NamespacedName.of(ks), k -> status("Progressing", "Reconciliation in progress"));

      // nothing cached: the update reads the object once, then writes it once
      assertEquals(
          List.of("GET " + path(ns.name(), "web"), "PATCH " + path(ns.name(), "web") + "/status"),
          requests,
          "requests sent");
      assertEquals("Reconciliation in progress", readyMessage(admin, ns.name(), "web"));
    }
  }

  @Test
  void aHelmReleaseCachedBeforeItsLastStatusWriteIsReadAgain(
      KubernetesClient admin, TestNamespace ns) {
    GenericKubernetesResource resource = new GenericKubernetesResource();
    resource.setApiVersion("helm.capstan.dev/v2");
    resource.setKind("HelmRelease");
    resource.setMetadata(new ObjectMetaBuilder().withName("web").withNamespace(ns.name()).build());
    resource
        .getAdditionalProperties()
        .put(
            "spec", Map.of("interval", "5m", "chartRef", Map.of("kind", "HelmChart", "name", "c")));
    admin.resource(resource).create();
    HelmRelease cached =
        admin.resources(HelmRelease.class).inNamespace(ns.name()).withName("web").get();
    StatusWriter writer = new StatusWriter(admin, new NoCache(), PipelineObserver.NONE);
    assertSame(cached, writer.current(cached), "nothing written yet: the cached one");

    writer.write(
        cached,
        Serialization.unmarshal("{\"lastAttemptedRevision\":\"1.0.0\"}", HelmReleaseStatus.class));

    // the cache has not seen that write: read again, with the status written
    HelmRelease current = writer.current(cached);
    assertNotSame(cached, current);
    assertEquals("1.0.0", current.getStatus().lastAttemptedRevision());
    assertSame(current, writer.current(current), "one that has seen the write is used as it is");
  }

  @Test
  void aKustomizationCachedBeforeItsLastStatusWriteIsReadAgain(
      KubernetesClient admin, TestNamespace ns) {
    Kustomization cached = create(admin, ns.name(), "app");
    StatusWriter writer = new StatusWriter(admin, new NoCache(), PipelineObserver.NONE);
    assertSame(cached, writer.current(cached), "nothing written yet: the cached one");

    String before = cached.getMetadata().getResourceVersion();
    writer.write(cached, status("ReconciliationSucceeded", "Applied revision: main@sha1:1"));

    // the cache has not seen that write (its version is the one before): read again
    Kustomization stale = admin.getKubernetesSerialization().clone(cached);
    stale.setStatus(null);
    stale.getMetadata().setResourceVersion(before);
    Kustomization current = writer.current(stale);
    assertNotSame(stale, current);
    assertEquals(
        "Applied revision: main@sha1:1", current.getStatus().conditions().get(0).getMessage());
    assertSame(current, writer.current(current), "one that has seen the write is used as it is");
    admin.resource(current).delete();
    assertNull(writer.current(stale), "gone: none");
  }

  private static KubernetesClient recording(KubernetesClient admin, List<String> requests) {
    Interceptor recorder =
        new Interceptor() {
          @Override
          public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
            requests.add(request.method() + " " + request.uri().getPath());
          }
        };
    return new KubernetesClientBuilder()
        .withConfig(admin.getConfiguration())
        .withHttpClientBuilderConsumer(b -> b.addOrReplaceInterceptor("record", recorder))
        .build();
  }

  private static String path(String namespace, String name) {
    return "/apis/kustomize.capstan.dev/v1/namespaces/" + namespace + "/kustomizations/" + name;
  }

  private static Kustomization create(KubernetesClient client, String namespace, String name) {
    GenericKubernetesResource resource = new GenericKubernetesResource();
    resource.setApiVersion("kustomize.capstan.dev/v1");
    resource.setKind("Kustomization");
    resource.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(namespace).build());
    resource
        .getAdditionalProperties()
        .put(
            "spec",
            Map.of(
                "interval",
                "5m",
                "path",
                "./web",
                "prune",
                true,
                "sourceRef",
                Map.of("kind", "GitRepository", "name", "repo")));
    client.resource(resource).create();
    return client.resources(Kustomization.class).inNamespace(namespace).withName(name).get();
  }

  private static KustomizationStatus status(String reason, String message) {
    Condition ready =
        new ConditionBuilder()
            .withType("Ready")
            .withStatus("ReconciliationSucceeded".equals(reason) ? "True" : "Unknown")
            .withReason(reason)
            .withMessage(message)
            .withLastTransitionTime("2026-01-01T00:00:00Z")
            .withObservedGeneration(1L)
            .build();
    return new KustomizationStatus(1L, List.of(ready), null, null, null, null);
  }

  private static String readyMessage(KubernetesClient client, String namespace, String name) {
    return client
        .resources(Kustomization.class)
        .inNamespace(namespace)
        .withName(name)
        .get()
        .getStatus()
        .conditions()
        .get(0)
        .getMessage();
  }

  /** A view with nothing cached yet. */
  private static final class NoCache implements ClusterView {
    @Override
    public Optional<GitRepository> gitRepository(NamespacedName key) {
      return Optional.empty();
    }

    @Override
    public Optional<Kustomization> kustomization(NamespacedName key) {
      return Optional.empty();
    }

    @Override
    public Collection<Kustomization> kustomizations() {
      return List.of();
    }
  }
}
