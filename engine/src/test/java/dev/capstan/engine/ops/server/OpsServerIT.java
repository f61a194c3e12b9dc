package dev.capstan.engine.ops.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.engine.ops.metrics.Metrics;
import dev.capstan.engine.ops.metrics.ReconcileOutcome;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.BindException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The operations endpoint over real HTTP on loopback. */
class OpsServerIT {
  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final AtomicReference<Readiness> readiness =
      new AtomicReference<>(Readiness.notReady("starting"));
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private OpsServer server;

  @BeforeEach
  void start() throws Exception {
    server = OpsServer.start(ListenAddress.parse("127.0.0.1:0"), registry, readiness::get);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private HttpResponse<String> get(String path, String accept) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.address().getPort() + path))
            .timeout(Duration.ofSeconds(5));
    if (accept != null) {
      request.header("Accept", accept);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void metricsAreServedInPrometheusAndOpenMetricsFormat() throws Exception {
    new Metrics(registry)
        .reconciled(
            "Kustomization", "apps", "web", ReconcileOutcome.SUCCESS, Duration.ofSeconds(2));
    HttpResponse<String> text = get("/metrics", null);
    assertEquals(200, text.statusCode());
    assertTrue(
        text.headers()
            .firstValue("Content-Type")
            .orElse("")
            .startsWith("text/plain; version=0.0.4"));
    assertTrue(
        text.body().contains("capstan_reconcile_duration_seconds_count{kind=\"Kustomization\""),
        text.body());

    HttpResponse<String> open = get("/metrics", "application/openmetrics-text; version=1.0.0");
    assertTrue(
        open.headers()
            .firstValue("Content-Type")
            .orElse("")
            .startsWith("application/openmetrics-text"));
    assertTrue(open.body().trim().endsWith("# EOF"), open.body());
  }

  @Test
  void healthzIsAliveAndReadyzFollowsTheCheck() throws Exception {
    assertEquals(200, get("/healthz", null).statusCode());
    HttpResponse<String> notReady = get("/readyz", null);
    assertEquals(503, notReady.statusCode());
    assertEquals("not ready: starting\n", notReady.body());

    readiness.set(Readiness.ready("leading"));
    HttpResponse<String> ready = get("/readyz", null);
    assertEquals(200, ready.statusCode());
    assertEquals("ok: leading\n", ready.body());
  }

  @Test
  void aFailingCheckIsNotReadyAndUnknownPathsAndMethodsAreRefused() throws Exception {
    server.close();
    server =
        OpsServer.start(
            ListenAddress.parse("127.0.0.1:0"),
            registry,
            () -> {
              throw new IllegalStateException("boom");
            });
    HttpResponse<String> failing = get("/readyz", null);
    assertEquals(503, failing.statusCode());
    assertTrue(failing.body().contains("IllegalStateException"), failing.body());
    assertEquals(404, get("/nothing", null).statusCode());
    HttpResponse<String> post =
        http.send(
            HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + server.address().getPort() + "/metrics"))
                .POST(HttpRequest.BodyPublishers.ofString("x"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertEquals(405, post.statusCode());
  }

  @Test
  void aTakenAddressFailsAtStart() {
    String taken = "127.0.0.1:" + server.address().getPort();
    Assertions.assertThrows(
        BindException.class,
        () -> OpsServer.start(ListenAddress.parse(taken), registry, readiness::get));
  }
}
