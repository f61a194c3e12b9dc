package dev.capstan.engine.ops;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine's operations endpoint on {@code --metrics-addr}: Prometheus metrics at
 * {@code /metrics}, liveness at {@code /healthz} (the process serves HTTP) and readiness at
 * {@code /readyz} (the supplied check).
 */
public final class OpsServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(OpsServer.class);
  private static final String OPENMETRICS = "application/openmetrics-text";

  private final HttpServer server;
  private final ExecutorService executor;

  private OpsServer(HttpServer server, ExecutorService executor) {
    this.server = server;
    this.executor = executor;
  }

  /** Binds the address and starts serving; fails at once if the address is taken. */
  public static OpsServer start(ListenAddress address, PrometheusMeterRegistry registry, ReadinessCheck readiness)
      throws IOException {
    HttpServer server = HttpServer.create(address.socketAddress(), 0);
    ExecutorService executor = Executors.newFixedThreadPool(2, r -> {
      Thread t = new Thread(r, "capstan-ops-http");
      t.setDaemon(true);
      return t;
    });
    server.setExecutor(executor);
    server.createContext("/metrics", getOnly(exchange -> metrics(exchange, registry)));
    server.createContext("/healthz", getOnly(exchange -> respond(exchange, 200, "text/plain", "ok\n")));
    server.createContext("/readyz", getOnly(exchange -> ready(exchange, readiness)));
    server.createContext("/", exchange -> respond(exchange, 404, "text/plain", "not found\n"));
    server.start();
    LOG.info("serving /metrics, /healthz and /readyz on {}", server.getAddress());
    return new OpsServer(server, executor);
  }

  /** The bound address (the real port when 0 was asked for). */
  public InetSocketAddress address() {
    return server.getAddress();
  }

  private static void metrics(HttpExchange exchange, PrometheusMeterRegistry registry) throws IOException {
    String accept = exchange.getRequestHeaders().getFirst("Accept");
    String contentType = accept != null && accept.contains(OPENMETRICS)
        ? "application/openmetrics-text; version=1.0.0; charset=utf-8"
        : "text/plain; version=0.0.4; charset=utf-8";
    respond(exchange, 200, contentType, registry.scrape(contentType));
  }

  private static void ready(HttpExchange exchange, ReadinessCheck check) throws IOException {
    Readiness readiness;
    try {
      readiness = check.check();
    } catch (RuntimeException e) {
      readiness = Readiness.notReady("readiness check failed: " + e.getClass().getSimpleName());
    }
    respond(exchange, readiness.ready() ? 200 : 503, "text/plain",
        (readiness.ready() ? "ok" : "not ready") + ": " + readiness.reason() + "\n");
  }

  private static HttpHandler getOnly(HttpHandler handler) {
    return exchange -> {
      try (exchange) {
        if (!"GET".equals(exchange.getRequestMethod()) && !"HEAD".equals(exchange.getRequestMethod())) {
          exchange.getResponseHeaders().set("Allow", "GET, HEAD");
          respond(exchange, 405, "text/plain", "method not allowed\n");
          return;
        }
        handler.handle(exchange);
      }
    };
  }

  static void respond(HttpExchange exchange, int status, String contentType, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", contentType);
    boolean head = "HEAD".equals(exchange.getRequestMethod());
    exchange.sendResponseHeaders(status, head ? -1 : bytes.length);
    if (!head) {
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    }
  }

  @Override
  public void close() {
    server.stop(1);
    executor.shutdownNow();
  }
}
