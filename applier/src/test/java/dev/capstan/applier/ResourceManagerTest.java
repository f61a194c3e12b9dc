package dev.capstan.applier;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.sun.net.httpserver.HttpExchange;
import dev.capstan.applier.apply.ApplyRequest;
import dev.capstan.applier.common.Owner;
import dev.capstan.applier.common.Polling;
import dev.capstan.applier.inventory.InventorySet;
import dev.capstan.health.HealthEvaluator;
import dev.capstan.kube.ObjectRef;
import dev.capstan.testing.LocalApiServer;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The manager's wiring: the discovery answers it is given are the ones every verb reads, so that a
 * kind discovered by one verb is not asked for again by the next.
 */
class ResourceManagerTest {

  private static final String CORE =
      """
      {"kind":"APIResourceList","apiVersion":"v1","groupVersion":"v1","resources":[
        {"name":"configmaps","namespaced":true,"kind":"ConfigMap",
         "verbs":["get","list","create","patch","delete"]}]}
      """;

  private final List<String> requests = new CopyOnWriteArrayList<>();
  private LocalApiServer api;
  private KubernetesClient client;

  @BeforeEach
  void start() throws IOException {
    api = LocalApiServer.start(this::answer);
    client = api.client();
  }

  @AfterEach
  void stop() {
    api.close();
  }

  @Test
  void everyVerbFindsKindsThroughTheOneKeptDiscovery() {
    ResourceManager manager = ResourceManager.recent(client, Runnable::run, Polling.system());
    Owner owner = new Owner("app", "team");
    GenericKubernetesResource object = TestObjects.configMap("team", "settings", "a", "b");
    ObjectRef ref = ObjectRef.of(object);
    InventorySet inventory = InventorySet.of(List.of(ref));
    HealthEvaluator evaluator = HealthEvaluator.withBuiltinLibrary();

    manager.health(List.of(ref), evaluator);
    manager.health(List.of(ref), evaluator);
    manager.prune(inventory, InventorySet.EMPTY, owner, Duration.ofSeconds(1));
    manager.delete(inventory, owner, Duration.ofSeconds(1), false);
    whateverItAnswers(() -> manager.diff(List.of(object), owner, "team"));
    whateverItAnswers(() -> manager.apply(ApplyRequest.of(List.of(object), owner)));

    assertEquals(
        1,
        requests.stream().filter(r -> r.equals("GET /api/v1")).count(),
        "the core group was discovered once for all verbs: " + requests);
  }

  /** This fake API server knows no objects: what a verb answers is not this test's concern. */
  private static void whateverItAnswers(Runnable verb) {
    try {
      verb.run();
    } catch (RuntimeException e) {
      // the fake server's 404s
    }
  }

  private void answer(HttpExchange exchange) throws IOException {
    String path = exchange.getRequestURI().getPath();
    requests.add(exchange.getRequestMethod() + " " + path);
    if (!path.equals("/api/v1")) {
      exchange.sendResponseHeaders(404, -1);
      exchange.close();
      return;
    }
    byte[] body = CORE.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", "application/json");
    exchange.sendResponseHeaders(200, body.length);
    exchange.getResponseBody().write(body);
    exchange.close();
  }
}
