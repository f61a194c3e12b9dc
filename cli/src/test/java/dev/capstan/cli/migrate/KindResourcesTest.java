package dev.capstan.cli.migrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What a plan for {@code -n apps} reads, from an API server (a real HTTP server answering as one)
 * holding a Flux GitRepository in apps and one in fleet: every namespace's objects, or only apps'
 * when listing the others is forbidden.
 */
class KindResourcesTest {
  private final List<String> paths = new CopyOnWriteArrayList<>();
  private HttpServer server;
  private KubernetesClient client;
  private volatile boolean clusterWideForbidden;

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", this::answer);
    server.start();
    client =
        new KubernetesClientBuilder()
            .withConfig(
                new ConfigBuilder()
                    .withMasterUrl("http://127.0.0.1:" + server.getAddress().getPort())
                    .withRequestRetryBackoffLimit(0)
                    .build())
            .build();
  }

  @AfterEach
  void stop() {
    client.close();
    server.stop(0);
  }

  @Test
  void aScopedPlanReadsEveryNamespaceForTheReferencesThatCrossThem() {
    KindResources.View read = new KindResources(client).around(Optional.of("apps"), false);

    assertEquals(List.of("apps/podinfo", "fleet/fleet"), names(read.objects()));
    assertTrue(read.everyNamespace());
    assertTrue(
        paths.contains("/apis/source.toolkit.fluxcd.io/v1/gitrepositories"), paths::toString);
  }

  @Test
  void whenListingEveryNamespaceIsForbiddenOnlyItsOwnIsRead() {
    clusterWideForbidden = true;

    KindResources.View read = new KindResources(client).around(Optional.of("apps"), false);

    assertEquals(List.of("apps/podinfo"), names(read.objects()));
    assertFalse(read.everyNamespace());
    assertTrue(
        paths.contains("/apis/source.toolkit.fluxcd.io/v1/namespaces/apps/gitrepositories"),
        paths::toString);
  }

  private static List<String> names(List<Manifest> objects) {
    return objects.stream().map(o -> o.namespace() + "/" + o.name()).toList();
  }

  private void answer(HttpExchange exchange) throws IOException {
    String path = exchange.getRequestURI().getPath();
    paths.add(path);
    boolean scoped = path.contains("/namespaces/");
    String body;
    int status = 200;
    if (!scoped && clusterWideForbidden) {
      status = 403;
      body =
          "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\","
              + "\"reason\":\"Forbidden\",\"code\":403,\"message\":\"forbidden\"}";
    } else if (path.endsWith("/source.toolkit.fluxcd.io/v1/gitrepositories")) {
      body = list(repository("apps", "podinfo") + "," + repository("fleet", "fleet"));
    } else if (path.endsWith("/namespaces/apps/gitrepositories") && path.contains("fluxcd.io")) {
      body = list(repository("apps", "podinfo"));
    } else {
      body = list("");
    }
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, bytes.length);
    exchange.getResponseBody().write(bytes);
    exchange.close();
  }

  private static String list(String items) {
    return "{\"apiVersion\":\"v1\",\"kind\":\"List\",\"metadata\":{},\"items\":[" + items + "]}";
  }

  private static String repository(String namespace, String name) {
    return "{\"apiVersion\":\"source.toolkit.fluxcd.io/v1\",\"kind\":\"GitRepository\","
        + "\"metadata\":{\"namespace\":\""
        + namespace
        + "\",\"name\":\""
        + name
        + "\"},\"spec\":{\"url\":\"https://example.com/"
        + name
        + "\"}}";
  }
}
