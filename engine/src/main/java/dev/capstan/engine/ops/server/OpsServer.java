package dev.capstan.engine.ops.server;

import dev.capstan.engine.http.GuardedServer;
import dev.capstan.engine.http.ServerLimits;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine's operations endpoint on {@code --metrics-addr}: Prometheus metrics at {@code
 * /metrics}, liveness at {@code /healthz} (the process serves HTTP) and readiness at {@code
 * /readyz} (the supplied check). It runs on its own {@link GuardedServer}, so a probe never waits
 * behind the webhook, and slow or half-open clients hold no thread that answers probes.
 */
public final class OpsServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(OpsServer.class);
  private static final String OPENMETRICS = "application/openmetrics-text";

  private final GuardedServer server;

  private OpsServer(GuardedServer server) {
    this.server = server;
  }

  /** Binds the address and starts serving; fails at once if the address is taken. */
  public static OpsServer start(
      ListenAddress address, PrometheusMeterRegistry registry, ReadinessCheck readiness)
      throws IOException {
    return start(address, registry, readiness, ServerLimits.ENDPOINT);
  }

  static OpsServer start(
      ListenAddress address,
      PrometheusMeterRegistry registry,
      ReadinessCheck readiness,
      ServerLimits limits)
      throws IOException {
    GuardedServer server =
        GuardedServer.start(
            "capstan-ops-http", address.socketAddress(), limits, new Routes(registry, readiness));
    LOG.info("serving /metrics, /healthz and /readyz on {}", server.address());
    return new OpsServer(server);
  }

  /** The bound address (the real port when 0 was asked for). */
  public InetSocketAddress address() {
    return server.address();
  }

  @Override
  public void close() {
    server.close();
  }

  /** The three paths; each answer is computed at once, without reading a request body. */
  private static final class Routes extends Handler.Abstract {
    private final PrometheusMeterRegistry registry;
    private final ReadinessCheck readiness;

    Routes(PrometheusMeterRegistry registry, ReadinessCheck readiness) {
      this.registry = registry;
      this.readiness = readiness;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
      String path = Request.getPathInContext(request);
      boolean known = "/metrics".equals(path) || "/healthz".equals(path) || "/readyz".equals(path);
      if (!known) {
        respond(response, callback, 404, "text/plain", "not found\n");
      } else if (!"GET".equals(request.getMethod()) && !"HEAD".equals(request.getMethod())) {
        response.getHeaders().put(HttpHeader.ALLOW, "GET, HEAD");
        respond(response, callback, 405, "text/plain", "method not allowed\n");
      } else if ("/healthz".equals(path)) {
        respond(response, callback, 200, "text/plain", "ok\n");
      } else if ("/readyz".equals(path)) {
        ready(response, callback);
      } else {
        metrics(request, response, callback);
      }
      return true;
    }

    private void metrics(Request request, Response response, Callback callback) {
      String accept = request.getHeaders().get(HttpHeader.ACCEPT);
      String contentType =
          accept != null && accept.contains(OPENMETRICS)
              ? "application/openmetrics-text; version=1.0.0; charset=utf-8"
              : "text/plain; version=0.0.4; charset=utf-8";
      respond(response, callback, 200, contentType, registry.scrape(contentType));
    }

    private void ready(Response response, Callback callback) {
      Readiness current;
      try {
        current = readiness.check();
      } catch (RuntimeException e) {
        current = Readiness.notReady("readiness check failed: " + e.getClass().getSimpleName());
      }
      respond(
          response,
          callback,
          current.ready() ? 200 : 503,
          "text/plain",
          (current.ready() ? "ok" : "not ready") + ": " + current.reason() + "\n");
    }
  }

  /**
   * Writes a whole answer; for HEAD, Jetty sends the headers (with the length) and drops the body.
   */
  private static void respond(
      Response response, Callback callback, int status, String contentType, String body) {
    response.setStatus(status);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, contentType);
    Content.Sink.write(response, true, body, callback);
  }
}
