package dev.capstan.engine.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import dev.capstan.engine.http.ClientEventLoops;
import dev.capstan.testing.LocalApiServer;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The config watches against a loopback stand-in for the API server that records what it is asked
 * and answers as an API server answers a metadata-only request: every list asks for a page of
 * metadata only, every watch for metadata only, and a change the watch reports (an object with
 * metadata and no data, as the API server then sends it) still reaches the listener.
 */
class ConfigWatchesTest {
  private static final String SELECTOR = "reconcile.fluxcd.io/watch=Enabled";

  /** One request the stand-in received. */
  private record Seen(String path, String query, String accept) {
    boolean watch() {
      return query.contains("watch=true");
    }
  }

  private final List<Seen> seen = new CopyOnWriteArrayList<>();
  private final BlockingQueue<String> reported = new LinkedBlockingQueue<>();
  private final ExecutorService handlers = Executors.newCachedThreadPool();
  private LocalApiServer api;
  private KubernetesClient client;
  private ConfigWatches watches;
  private final ClientEventLoops eventLoops = ClientEventLoops.start();

  @BeforeEach
  void start() throws IOException {
    api = LocalApiServer.start(this::answer, handlers);
    client = api.client();
    watches = new ConfigWatches(client, eventLoops.http(), SELECTOR);
    watches.onChange((kind, key) -> reported.add(kind + " " + key));
  }

  @AfterEach
  void stop() {
    watches.close();
    eventLoops.close();
    api.close();
    handlers.shutdownNow();
  }

  @Test
  void listsAndWatchesAskForMetadataOnlyAndListsInPages() {
    watches.start();
    Awaitility.await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> seen.stream().filter(Seen::watch).map(Seen::path).distinct().count() == 2);

    for (String path : List.of("/api/v1/configmaps", "/api/v1/secrets")) {
      Seen list =
          seen.stream()
              .filter(s -> s.path().equals(path) && !s.watch())
              .findFirst()
              .orElseThrow(() -> new AssertionError("no list of " + path + ": " + seen));
      assertEquals(MetadataOnlyRequests.LIST, list.accept(), path);
      assertTrue(list.query().contains("limit=" + ConfigWatches.LIST_PAGE), list.query());
      assertTrue(list.query().contains("labelSelector="), list.query());
    }
    List<Seen> watched = seen.stream().filter(Seen::watch).toList();
    assertFalse(watched.isEmpty());
    for (Seen watch : watched) {
      assertEquals(MetadataOnlyRequests.WATCH, watch.accept(), watch.toString());
    }
  }

  @Test
  void aChangeTheMetadataOnlyWatchReportsReachesTheListener() throws InterruptedException {
    watches.start();

    assertEquals("Secret team/new", reported.poll(20, TimeUnit.SECONDS));
  }

  private void answer(HttpExchange exchange) throws IOException {
    String query = exchange.getRequestURI().getRawQuery();
    Seen request =
        new Seen(
            exchange.getRequestURI().getPath(),
            query == null ? "" : query,
            exchange.getRequestHeaders().getFirst("Accept"));
    seen.add(request);
    if (exchange.getRequestHeaders().containsKey("Upgrade")) {
      // No WebSocket here: the client watches over plain HTTP instead.
      exchange.sendResponseHeaders(200, -1);
      exchange.close();
      return;
    }
    exchange.getResponseHeaders().add("Content-Type", "application/json");
    if (!request.watch()) {
      // No ConfigMap matches: an API server writes the items of an empty list as null.
      String items =
          request.path().equals("/api/v1/configmaps")
              ? "null"
              : """
              [{"apiVersion":"meta.k8s.io/v1","kind":"PartialObjectMetadata",
                "metadata":{"name":"old","namespace":"team","resourceVersion":"5"}}]\
              """;
      byte[] list =
          """
          {"apiVersion":"meta.k8s.io/v1","kind":"PartialObjectMetadataList",
           "metadata":{"resourceVersion":"10"},"items":%s}
          """
              .formatted(items)
              .getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(200, list.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(list);
      }
      return;
    }
    exchange.sendResponseHeaders(200, 0);
    try (OutputStream out = exchange.getResponseBody()) {
      if (request.path().equals("/api/v1/secrets")) {
        out.write(
            ("{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"meta.k8s.io/v1\","
                    + "\"kind\":\"PartialObjectMetadata\",\"metadata\":{\"name\":\"new\","
                    + "\"namespace\":\"team\",\"resourceVersion\":\"11\"}}}\n")
                .getBytes(StandardCharsets.UTF_8));
        out.flush();
      }
      // Held open as a watch is, until the client goes.
      sleepQuietly(Duration.ofSeconds(30));
    } catch (IOException closedByTheClient) {
      // the watch was closed
    }
  }

  private static void sleepQuietly(Duration duration) {
    try {
      Thread.sleep(duration.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
