package dev.capstan.engine.webhook;

import dev.capstan.engine.ops.metrics.Metrics;
import dev.capstan.engine.ops.metrics.WebhookOutcome;
import dev.capstan.kube.ApiErrors;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.Map;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** One request: find the receiver, prove the sender, then (and only then) request the fetch. */
final class WebhookHandler extends Handler.Abstract {
  private static final Logger LOG = LoggerFactory.getLogger(WebhookHandler.class);
  static final int MAX_BODY = 8 * 1024 * 1024;

  private final Map<String, Receiver> receivers;
  private final FetchRequester requester;
  private final Metrics metrics;

  WebhookHandler(Map<String, Receiver> receivers, FetchRequester requester, Metrics metrics) {
    this.receivers = receivers;
    this.requester = requester;
    this.metrics = metrics;
  }

  /**
   * The body is read without holding a thread (a client sending it slowly costs only its
   * connection, which the server's deadlines bound); the rest runs once it is complete.
   */
  @Override
  public boolean handle(Request request, Response response, Callback callback) {
    Exchange exchange = new Exchange(response, callback);
    String path = Request.getPathInContext(request);
    String from = Request.getRemoteAddr(request);
    Receiver receiver =
        path.startsWith(WebhookServer.PATH_PREFIX)
            ? receivers.get(path.substring(WebhookServer.PATH_PREFIX.length()))
            : null;
    if (receiver == null) {
      reject(
          exchange,
          "unknown",
          from,
          new Verdict.Reject(404, "unknown_receiver", "no receiver at this path"));
    } else if (!"POST".equals(request.getMethod())) {
      response.getHeaders().put(HttpHeader.ALLOW, "POST");
      reject(exchange, receiver, from, new Verdict.Reject(405, "bad_method", "method is not POST"));
    } else if (request.getLength() > MAX_BODY) {
      tooLarge(exchange, receiver, from);
    } else {
      HttpFields headers = request.getHeaders();
      BoundedBody.read(
          request,
          MAX_BODY,
          result -> {
            if (result instanceof BoundedBody.Read read) {
              verified(exchange, receiver, from, headers, read.body());
            } else if (result instanceof BoundedBody.Failed failed) {
              LOG.warn(
                  "webhook receiver '{}': the request from {} ended before its body was read",
                  receiver.spec().name(),
                  from);
              exchange.callback().failed(failed.failure());
            } else {
              tooLarge(exchange, receiver, from);
            }
          });
    }
    return true;
  }

  /** The response and its completion callback of one request. */
  private record Exchange(Response response, Callback callback) {}

  private void verified(
      Exchange exchange, Receiver receiver, String from, HttpFields headers, byte[] body) {
    byte[] secret;
    try {
      secret = receiver.secret().secret();
    } catch (RuntimeException e) {
      LOG.error(
          "webhook receiver '{}': cannot read its secret ({}); request from {} refused",
          receiver.spec().name(),
          e.getMessage(),
          from);
      count(receiver, WebhookOutcome.FAILED, "secret_unavailable");
      respond(exchange, 503, "receiver secret unavailable\n");
      return;
    }
    Verdict verdict =
        Verifier.verify(receiver.spec().type(), receiver.spec().events(), headers, body, secret);
    if (verdict instanceof Verdict.Reject reject) {
      reject(exchange, receiver, from, reject);
    } else if (verdict instanceof Verdict.Ignore) {
      count(receiver, WebhookOutcome.IGNORED, "event_not_handled");
      respond(exchange, 200, "event ignored\n");
    } else {
      act(exchange, receiver, from);
    }
  }

  private void tooLarge(Exchange exchange, Receiver receiver, String from) {
    reject(
        exchange,
        receiver,
        from,
        new Verdict.Reject(413, "too_large", "body over " + MAX_BODY + " bytes"));
  }

  private void act(Exchange exchange, Receiver receiver, String from) {
    try {
      FetchRequester.Outcome outcome = requester.request(receiver.spec().resources());
      if (!outcome.missing().isEmpty()) {
        LOG.warn(
            "webhook receiver '{}': {} not found",
            receiver.spec().name(),
            String.join(", ", outcome.missing()));
      }
      LOG.info(
          "webhook receiver '{}': push from {} requested a fetch of {}",
          receiver.spec().name(),
          from,
          outcome.requested().isEmpty() ? "nothing" : String.join(", ", outcome.requested()));
      count(receiver, WebhookOutcome.ACCEPTED, "push");
      respond(
          exchange,
          200,
          "fetch requested for " + outcome.requested().size() + " GitRepositories\n");
    } catch (KubernetesClientException e) {
      LOG.error(
          "webhook receiver '{}': requesting the fetch failed: HTTP {} {}",
          receiver.spec().name(),
          e.getCode(),
          ApiErrors.reason(e));
      count(receiver, WebhookOutcome.FAILED, "api_error");
      respond(exchange, 500, "could not request the fetch\n");
    }
  }

  private void reject(Exchange exchange, Receiver receiver, String from, Verdict.Reject reject) {
    LOG.warn(
        "webhook receiver '{}' ({}) rejected a request from {}: {}",
        receiver.spec().name(),
        receiver.spec().type().configName(),
        from,
        reject.detail());
    count(receiver, WebhookOutcome.REJECTED, reject.reason());
    respond(exchange, reject.status(), statusText(reject.status()) + "\n");
  }

  private void reject(Exchange exchange, String type, String from, Verdict.Reject reject) {
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

  private static void respond(Exchange exchange, int status, String text) {
    exchange.response().setStatus(status);
    exchange.response().getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain; charset=utf-8");
    Content.Sink.write(exchange.response(), true, text, exchange.callback());
  }
}
