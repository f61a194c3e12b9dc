package dev.capstan.engine.monitor;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.capstan.engine.http.ClientEventLoops;
import dev.capstan.testing.KubernetesCluster;
import dev.capstan.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The real API server answers the config watches' client with metadata only: a Secret listed or
 * seen changing by a watch arrives with its name and resourceVersion, and without its data.
 */
@ExtendWith(KubernetesCluster.class)
class MetadataOnlyRequestsIT {

  @Test
  void aSecretIsListedAndWatchedWithoutItsData(KubernetesClient admin, TestNamespace ns) {
    admin.secrets().inNamespace(ns.name()).resource(secret("first")).create();
    List<GenericKubernetesResource> seen = new CopyOnWriteArrayList<>();
    try (ClientEventLoops eventLoops = ClientEventLoops.start();
        KubernetesClient metadata = MetadataOnlyRequests.client(admin, eventLoops.http())) {
      var secrets = metadata.genericKubernetesResources("v1", "Secret").inNamespace(ns.name());
      List<GenericKubernetesResource> listed = secrets.list().getItems();
      assertEquals(List.of("first"), listed.stream().map(s -> s.getMetadata().getName()).toList());
      assertWithoutData(listed.get(0));

      try (Watch watch = secrets.watch(recorder(seen))) {
        admin.secrets().inNamespace(ns.name()).resource(secret("second")).create();
        await()
            .atMost(Duration.ofSeconds(20))
            .until(() -> seen.stream().anyMatch(s -> "second".equals(s.getMetadata().getName())));
      }
    }
    seen.forEach(MetadataOnlyRequestsIT::assertWithoutData);
  }

  private static void assertWithoutData(GenericKubernetesResource object) {
    assertEquals("PartialObjectMetadata", object.getKind());
    assertFalse(object.getMetadata().getResourceVersion().isEmpty());
    assertFalse(object.getAdditionalProperties().containsKey("data"), object.toString());
  }

  private static Secret secret(String name) {
    return new SecretBuilder()
        .withNewMetadata()
        .withName(name)
        .endMetadata()
        .withStringData(Map.of("token", "not for the engine to read"))
        .build();
  }

  private static Watcher<GenericKubernetesResource> recorder(List<GenericKubernetesResource> seen) {
    return new Watcher<>() {
      @Override
      public void eventReceived(Action action, GenericKubernetesResource object) {
        seen.add(object);
      }

      @Override
      public void onClose(WatcherException cause) {}
    };
  }
}
