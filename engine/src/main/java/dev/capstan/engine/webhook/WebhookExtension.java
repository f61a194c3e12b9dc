package dev.capstan.engine.webhook;

import dev.capstan.engine.EngineExtension;
import dev.capstan.engine.EngineOptions;
import dev.capstan.engine.ops.OperationsSettings;
import dev.capstan.engine.ops.metrics.Metrics;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The webhook receivers of {@code --webhook-config}, served once the controllers run. The
 * composition root adds it beside the operations extension, whose metrics it counts into.
 */
public final class WebhookExtension implements EngineExtension {
  private static final Logger LOG = LoggerFactory.getLogger(WebhookExtension.class);

  private final OperationsSettings settings;
  private final ReceiverConfig receivers;
  private final Metrics metrics;
  private final Clock clock;
  private WebhookServer server;

  /**
   * Reads the webhook receivers at once, so that a wrong file stops the start before anything
   * listens.
   *
   * @throws IllegalArgumentException (an InvalidReceiverConfigException) naming what is wrong
   */
  public WebhookExtension(OperationsSettings settings, Metrics metrics, Clock clock) {
    this.settings = settings;
    this.receivers = settings.webhookConfig().map(ReceiverConfig::load).orElse(null);
    this.metrics = metrics;
    this.clock = clock;
  }

  @Override
  public void started(KubernetesClient client, EngineOptions options) {
    if (receivers == null) {
      LOG.info("no --webhook-config: webhook receivers are off");
      return;
    }
    try {
      server = WebhookServer.start(settings.webhookAddress(), receivers, client, metrics, clock);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot serve webhooks on " + settings.webhookAddress() + ": " + e.getMessage(), e);
    }
  }

  @Override
  public void stopping() {
    if (server != null) {
      server.close();
    }
  }
}
