package dev.capstan.engine.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.engine.http.ServerLimits;
import dev.capstan.engine.http.SlowClient;
import dev.capstan.engine.ops.metrics.Metrics;
import dev.capstan.engine.ops.server.ListenAddress;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A webhook over real sockets on loopback while slow clients hold connections to the same port. The
 * request carries a wrong signature, so it is answered (403) without any API server.
 */
class WebhookServerSlowClientsTest {
  @TempDir Path dir;

  @Test
  void aWebhookIsAnsweredBeforeStalledClientsTimeOut() {
    assertTimeoutPreemptively(
        Duration.ofSeconds(20),
        () -> {
          Path token = dir.resolve("token");
          Files.writeString(token, "shared-secret\n");
          ReceiverConfig config =
              ReceiverConfig.parse(
                  """
                  receivers:
                  - name: app
                    type: github
                    secretFile: %s
                    resources: [{namespace: apps, name: app}]
                  """
                      .formatted(token),
                  "test");
          ServerLimits limits =
              new ServerLimits(
                  ServerLimits.ENDPOINT.headerTimeout(),
                  ServerLimits.ENDPOINT.connectionTimeout(),
                  ServerLimits.ENDPOINT.idleTimeout(),
                  128,
                  32,
                  2);
          List<SlowClient> slow = new ArrayList<>();
          try (KubernetesClient unused =
                  new KubernetesClientBuilder()
                      .withConfig(new ConfigBuilder().withMasterUrl("https://127.0.0.1:1").build())
                      .build();
              WebhookServer server =
                  WebhookServer.start(
                      ListenAddress.parse("127.0.0.1:0"),
                      config,
                      unused,
                      new Metrics(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT)),
                      Clock.systemUTC(),
                      limits)) {
            int port = server.address().getPort();
            for (int i = 0; i < 10; i++) {
              // Half a request line, half the headers, or all headers and half the body.
              slow.add(
                  SlowClient.connect(
                      port,
                      switch (i % 3) {
                        case 0 -> "POST /hook/a";
                        case 1 -> "POST /hook/app HTTP/1.1\r\nHost: x\r\nX-GitHub-Ev";
                        default ->
                            "POST /hook/app HTTP/1.1\r\n"
                                + "Host: x\r\n"
                                + "Content-Length: 1000\r\n\r\n"
                                + "{\"ref\":";
                      }));
            }
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
            for (int i = 0; i < 3; i++) {
              long started = System.nanoTime();
              HttpResponse<String> response =
                  http.send(
                      HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/hook/app"))
                          .timeout(Duration.ofSeconds(5))
                          .header("X-GitHub-Event", "push")
                          .header("X-Hub-Signature-256", "sha256=" + "0".repeat(64))
                          .POST(HttpRequest.BodyPublishers.ofString("{}", StandardCharsets.UTF_8))
                          .build(),
                      HttpResponse.BodyHandlers.ofString());
              long took = (System.nanoTime() - started) / 1_000_000;
              assertEquals(403, response.statusCode(), response.body());
              // Half the header timeout: a server that served the stalled clients first would
              // answer
              // only after they timed out; a loaded machine may take over a second.
              assertTrue(took < 2500, "the webhook took " + took + " ms behind 10 stalled clients");
            }
          } finally {
            for (SlowClient client : slow) {
              client.close();
            }
          }
        });
  }
}
