package dev.capstan.ui;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import dev.capstan.testing.LocalApiServer;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The watches of a user who may not list HelmReleases, against a loopback stand-in for the API
 * server that refuses every list: the informers retry all along, but the open pages are told only
 * when a problem line appears or changes, never at each retry.
 */
class CatalogTest {
  private static final String HELM_RELEASES = "/apis/helm.capstan.dev/v2/helmreleases";

  private final Map<String, AtomicInteger> lists = new ConcurrentHashMap<>();
  private final List<String> changes = new CopyOnWriteArrayList<>();
  private volatile int forbiddenUntil = Integer.MAX_VALUE;
  private LocalApiServer api;
  private KubernetesClient client;
  private Catalog catalog;

  @AfterEach
  void stop() {
    if (catalog != null) {
      catalog.close();
    }
    if (client != null) {
      client.close();
    }
    if (api != null) {
      api.close();
    }
  }

  @Test
  void aForbiddenKindTellsThePagesOnceWhileItsInformerKeepsRetrying() throws IOException {
    start(List.of());

    // every kind refused and retried several times before the changes are counted
    await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> lists.size() >= 8 && lists.values().stream().allMatch(n -> n.get() >= 4));

    assertEquals(
        List.of(
            "Problem/Buckets",
            "Problem/GitRepositories",
            "Problem/HelmCharts",
            "Problem/HelmReleases",
            "Problem/HelmRepositories",
            "Problem/Kustomizations",
            "Problem/Leases",
            "Problem/OCIRepositories"),
        changes.stream().sorted().toList(),
        "one change per kind whose problem line appeared, none per retry");
    String line =
        catalog.problems().stream()
            .filter(p -> p.kind().equals("HelmReleases"))
            .findFirst()
            .orElseThrow()
            .message();
    assertTrue(line.startsWith("cannot list HelmReleases: "), line);
    assertTrue(line.contains("forbidden"), line);
    // the Leases' line is the Replicas page's, not the overview's
    assertTrue(catalog.problems().stream().noneMatch(p -> p.kind().equals("Leases")));
    List<String> replicaProblems = catalog.replicas().problems();
    assertEquals(1, replicaProblems.size(), replicaProblems.toString());
    assertTrue(replicaProblems.get(0).startsWith("cannot list Leases: "), replicaProblems.get(0));
  }

  @Test
  void aDifferentReasonIsANewProblemLineAndTellsThePagesAgain() throws IOException {
    forbiddenUntil = 2;
    start(List.of("team"));

    awaitLists("/apis/helm.capstan.dev/v2/namespaces/team/helmreleases", 5);

    assertEquals(
        2,
        changes.stream().filter("Problem/HelmReleases/team"::equals).count(),
        "forbidden, then unauthorized: " + changes);
    assertTrue(
        changes.stream().allMatch(c -> c.startsWith(Catalog.PROBLEM) && c.endsWith("/team")),
        "no change names everything: " + changes);
  }

  private void start(List<String> namespaces) throws IOException {
    api = LocalApiServer.start(this::refuse, Executors.newFixedThreadPool(4));
    client =
        new KubernetesClientBuilder()
            .withConfig(
                new ConfigBuilder()
                    .withMasterUrl(api.client().getMasterUrl().toString())
                    .withRequestRetryBackoffLimit(0)
                    .withWatchReconnectInterval(20)
                    .build())
            .build();
    catalog = new Catalog(client, namespaces, changes::add, Clock.systemUTC());
    catalog.start();
  }

  private void awaitLists(String path, int count) {
    await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> lists.getOrDefault(path, new AtomicInteger()).get() >= count);
  }

  /** Refuses every request, as the API server refuses a user without the rights to list. */
  private void refuse(HttpExchange exchange) throws IOException {
    String path = exchange.getRequestURI().getPath();
    int seen = lists.computeIfAbsent(path, p -> new AtomicInteger()).incrementAndGet();
    boolean forbidden = seen <= forbiddenUntil;
    String resource = path.substring(path.lastIndexOf('/') + 1);
    String status =
        forbidden
            ? """
            {"kind":"Status","apiVersion":"v1","status":"Failure","reason":"Forbidden","code":403,
             "message":"%s is forbidden: User \\"viewer\\" cannot list resource \\"%s\\""}
            """
                .formatted(resource, resource)
            : """
            {"kind":"Status","apiVersion":"v1","status":"Failure","reason":"Unauthorized",
             "code":401,"message":"Unauthorized"}
            """;
    byte[] body = status.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", "application/json");
    exchange.sendResponseHeaders(forbidden ? 403 : 401, body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
  }
}
