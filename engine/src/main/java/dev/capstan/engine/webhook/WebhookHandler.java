package dev.capstan.engine.webhook;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.capstan.engine.ops.Metrics;
import dev.capstan.engine.ops.WebhookOutcome;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** One request: find the receiver, prove the sender, then (and only then) request the fetch. */
final class WebhookHandler implements HttpHandler {
  private static final Logger LOG = LoggerFactory.getLogger(WebhookHandler.class);
  static final int MAX_BODY = 8 * 1024 * 1024;

  private final Map<String, Receiver> receivers;
  private final ReconcileRequester requester;
  private final Metrics metrics;

  WebhookHandler(Map<String, Receiver> receivers, ReconcileRequester requester, Metrics metrics) {
    this.receivers = receivers;
    this.requester = requester;
    this.metrics = metrics;
  }

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String path = exchange.getRequestURI().getPath();
      String from = exchange.getRemoteAddress().getAddress().getHostAddress();
      Receiver receiver = path.startsWith(WebhookServer.PATH_PREFIX)
          ? receivers.get(path.substring(WebhookServer.PATH_PREFIX.length())) : null;
      if (receiver == null) {
        reject(exchange, "unknown", from, new Verdict.Reject(404, "unknown_receiver", "no receiver at this path"));
        return;
      }
      if (!"POST".equals(exchange.getRequestMethod())) {
        exchange.getResponseHeaders().set("Allow", "POST");
        reject(exchange, receiver, from, new Verdict.Reject(405, "bad_method", "method is not POST"));
        return;
      }
      byte[] body = readBody(exchange.getRequestBody());
      if (body == null) {
        reject(exchange, receiver, from, new Verdict.Reject(413, "too_large", "body over " + MAX_BODY + " bytes"));
        return;
      }
      byte[] secret;
      try {
        secret = receiver.secret().secret();
      } catch (RuntimeException e) {
        LOG.error("webhook receiver '{}': cannot read its secret ({}); request from {} refused",
            receiver.spec().name(), e.getMessage(), from);
        count(receiver, WebhookOutcome.FAILED, "secret_unavailable");
        respond(exchange, 503, "receiver secret unavailable\n");
        return;
      }
      Verdict verdict = Verifier.verify(receiver.spec().type(), receiver.spec().events(),
          exchange.getRequestHeaders(), body, secret);
      if (verdict instanceof Verdict.Reject reject) {
        reject(exchange, receiver, from, reject);
      } else if (verdict instanceof Verdict.Ignore) {
        count(receiver, WebhookOutcome.IGNORED, "event_not_handled");
        respond(exchange, 200, "event ignored\n");
      } else {
        act(exchange, receiver, from);
      }
    }
  }

  private void act(HttpExchange exchange, Receiver receiver, String from) throws IOException {
    try {
      ReconcileRequester.Outcome outcome = requester.request(receiver.spec().resources());
      if (!outcome.missing().isEmpty()) {
        LOG.warn("webhook receiver '{}': {} not found", receiver.spec().name(), String.join(", ", outcome.missing()));
      }
      LOG.info("webhook receiver '{}': push from {} requested a fetch of {}", receiver.spec().name(), from,
          outcome.requested().isEmpty() ? "nothing" : String.join(", ", outcome.requested()));
      count(receiver, WebhookOutcome.ACCEPTED, "push");
      respond(exchange, 200, "fetch requested for " + outcome.requested().size() + " GitRepositories\n");
    } catch (KubernetesClientException e) {
      LOG.error("webhook receiver '{}': requesting the fetch failed: HTTP {} {}", receiver.spec().name(),
          e.getCode(), e.getStatus() != null ? e.getStatus().getMessage() : e.getMessage());
      count(receiver, WebhookOutcome.FAILED, "api_error");
      respond(exchange, 500, "could not request the fetch\n");
    }
  }

  private void reject(HttpExchange exchange, Receiver receiver, String from, Verdict.Reject reject)
      throws IOException {
    LOG.warn("webhook receiver '{}' ({}) rejected a request from {}: {}", receiver.spec().name(),
        receiver.spec().type().configName(), from, reject.detail());
    count(receiver, WebhookOutcome.REJECTED, reject.reason());
    respond(exchange, reject.status(), statusText(reject.status()) + "\n");
  }

  private void reject(HttpExchange exchange, String type, String from, Verdict.Reject reject) throws IOException {
    LOG.warn("webhook request from {} rejected: {}", from, reject.detail());
    metrics.webhookRequest(type, WebhookOutcome.REJECTED, reject.reason());
    respond(exchange, reject.status(), statusText(reject.status()) + "\n");
  }

  private void count(Receiver receiver, WebhookOutcome outcome, String reason) {
    metrics.webhookRequest(receiver.spec().type().configName(), outcome, reason);
  }

  private static String statusText(int status) {
    return switch (status) {
      case 401 -> "unauthorized";
      case 403 -> "forbidden";
      case 404 -> "not found";
      case 405 -> "method not allowed";
      case 413 -> "payload too large";
      default -> "rejected";
    };
  }

  /** The body, or null if it is larger than {@link #MAX_BODY}. */
  private static byte[] readBody(InputStream in) throws IOException {
    byte[] body = in.readNBytes(MAX_BODY + 1);
    return body.length > MAX_BODY ? null : body;
  }

  private static void respond(HttpExchange exchange, int status, String text) throws IOException {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }
}
