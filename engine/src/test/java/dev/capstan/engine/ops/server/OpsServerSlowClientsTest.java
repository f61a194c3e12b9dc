package dev.capstan.engine.ops.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.engine.http.ServerLimits;
import dev.capstan.engine.http.SlowClient;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Probes over real sockets on loopback while slow clients hold connections to the same port. */
class OpsServerSlowClientsTest {

  @Test
  void healthzIsAnsweredBeforeStalledClientsTimeOut() {
    assertTimeoutPreemptively(
        Duration.ofSeconds(20),
        () -> {
          // The engine's own limits, with the 2 worker threads the old server had: stalled requests
          // must not occupy them.
          ServerLimits limits =
              new ServerLimits(
                  ServerLimits.ENDPOINT.headerTimeout(),
                  ServerLimits.ENDPOINT.connectionTimeout(),
                  ServerLimits.ENDPOINT.idleTimeout(),
                  128,
                  32,
                  2);
          List<SlowClient> slow = new ArrayList<>();
          try (OpsServer server =
              OpsServer.start(
                  ListenAddress.parse("127.0.0.1:0"),
                  new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
                  () -> Readiness.ready("leading"),
                  limits)) {
            int port = server.address().getPort();
            for (int i = 0; i < 10; i++) {
              slow.add(
                  SlowClient.connect(
                      port, i % 2 == 0 ? "GET /heal" : "GET /healthz HTTP/1.1\r\nHost: x\r\n"));
            }
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
            for (String path : new String[] {"/healthz", "/readyz", "/healthz"}) {
              long started = System.nanoTime();
              HttpResponse<String> response =
                  http.send(
                      HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                          .timeout(Duration.ofSeconds(5))
                          .build(),
                      HttpResponse.BodyHandlers.ofString());
              long took = (System.nanoTime() - started) / 1_000_000;
              assertEquals(200, response.statusCode());
              // Half the header timeout: a server that served the stalled clients first would
              // answer
              // only after they timed out; a loaded machine may take over a second.
              assertTrue(took < 2500, path + " took " + took + " ms behind 10 stalled clients");
            }
          } finally {
            for (SlowClient client : slow) {
              client.close();
            }
          }
        });
  }
}
