package dev.capstan.applier.prune;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import dev.capstan.applier.ResourceManager;
import dev.capstan.applier.common.ObjectResult;
import dev.capstan.applier.common.Owner;
import dev.capstan.applier.common.Polling;
import dev.capstan.kube.ObjectRef;
import dev.capstan.testing.LocalApiServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What prune would do, decided as prune decides and nothing deleted. */
class WouldPruneTest {
  private static final String CORE =
      """
      {"kind":"APIResourceList","apiVersion":"v1","groupVersion":"v1","resources":[
        {"name":"configmaps","namespaced":true,"kind":"ConfigMap",
         "verbs":["get","list","create","patch","delete"]}]}
      """;
  private static final String LABELS =
      "\"labels\":{\"helm.capstan.dev/name\":\"app\",\"helm.capstan.dev/namespace\":\"apps\"}";

  private final Owner owner = Owner.helmRelease("app", "apps");
  private final List<String> requests = new CopyOnWriteArrayList<>();
  // the server's threads apart from the reads', so that reads waiting never starve the answers
  private final ExecutorService serverThreads = Executors.newFixedThreadPool(4);
  private final ExecutorService threads = Executors.newFixedThreadPool(4);
  private LocalApiServer api;

  @BeforeEach
  void start() throws IOException {
    api = LocalApiServer.start(this::answer, serverThreads);
  }

  @AfterEach
  void stop() {
    api.close();
    threads.shutdownNow();
    serverThreads.shutdownNow();
  }

  @Test
  void ownedObjectsWouldBeDeletedKeptOnesAreSaidSoAndNothingIsDeleted() {
    List<ObjectResult> results =
        manager()
            .wouldPrune(refs("owned", "kept", "foreign", "gone"), owner, Duration.ofSeconds(5));

    assertEquals(
        List.of("owned deleted", "kept skipped", "foreign skipped"),
        results.stream().map(r -> r.ref().name() + " " + r.action().label()).toList());
    assertTrue(results.get(1).reason().contains("helm.sh/resource-policy: keep"));
    assertTrue(requests.stream().noneMatch(r -> r.startsWith("DELETE")), requests::toString);
  }

  @Test
  void anObjectThatCannotBeReadIsAFailureNotADeletion() {
    List<ObjectResult> results =
        manager().wouldPrune(refs("forbidden", "slow"), owner, Duration.ofMillis(500));

    assertEquals(
        List.of("forbidden failed", "slow failed"),
        results.stream().map(r -> r.ref().name() + " " + r.action().label()).toList());
    assertEquals("not read within PT0.5S", results.get(1).reason());
  }

  private ResourceManager manager() {
    return ResourceManager.recent(api.client(), threads, Polling.system());
  }

  private static List<ObjectRef> refs(String... names) {
    return List.of(names).stream().map(n -> ObjectRef.of("v1", "ConfigMap", "apps", n)).toList();
  }

  private void answer(HttpExchange exchange) throws IOException {
    String path = exchange.getRequestURI().getPath();
    requests.add(exchange.getRequestMethod() + " " + path);
    String name = path.substring(path.lastIndexOf('/') + 1);
    String body =
        switch (path.equals("/api/v1") ? "discovery" : name) {
          case "discovery" -> CORE;
          case "owned" -> configMap(name, LABELS);
          case "kept" ->
              configMap(name, LABELS + ",\"annotations\":{\"helm.sh/resource-policy\":\"keep\"}");
          case "foreign" -> configMap(name, "\"labels\":{}");
          case "slow" -> {
            sleep();
            yield configMap(name, LABELS);
          }
          default -> null;
        };
    int code = body != null ? 200 : name.equals("forbidden") ? 403 : 404;
    byte[] bytes = (body == null ? "{}" : body).getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", "application/json");
    exchange.sendResponseHeaders(code, bytes.length);
    exchange.getResponseBody().write(bytes);
    exchange.close();
  }

  private static String configMap(String name, String meta) {
    return "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\""
        + name
        + "\",\"namespace\":\"apps\","
        + meta
        + "}}";
  }

  private static void sleep() {
    try {
      Thread.sleep(3_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
