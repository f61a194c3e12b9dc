package dev.capstan.engine.webhook;

import dev.capstan.engine.http.GuardedServer;
import dev.capstan.engine.http.ServerLimits;
import dev.capstan.engine.ops.metrics.Metrics;
import dev.capstan.engine.ops.server.ListenAddress;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The webhook receiver on {@code --webhook-addr}: each configured receiver at {@code POST
 * /hook/<name>}. A proven push requests an immediate fetch of the receiver's GitRepositories;
 * anything unproven is rejected, counted and logged, never acted on. It runs on its own {@link
 * GuardedServer}: slow or stalled senders cannot hold the threads that answer a real push (GitHub
 * gives up after 10 seconds).
 */
public final class WebhookServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(WebhookServer.class);
  static final String PATH_PREFIX = "/hook/";

  private final GuardedServer server;

  private WebhookServer(GuardedServer server) {
    this.server = server;
  }

  /**
   * Binds the address and serves the receivers of {@code config}; fails at once if the address is
   * taken.
   */
  public static WebhookServer start(
      ListenAddress address,
      ReceiverConfig config,
      KubernetesClient client,
      Metrics metrics,
      Clock clock)
      throws IOException {
    return start(address, config, client, metrics, clock, ServerLimits.ENDPOINT);
  }

  static WebhookServer start(
      ListenAddress address,
      ReceiverConfig config,
      KubernetesClient client,
      Metrics metrics,
      Clock clock,
      ServerLimits limits)
      throws IOException {
    Map<String, Receiver> receivers = new LinkedHashMap<>();
    for (ReceiverSpec spec : config.receivers()) {
      receivers.put(spec.name(), new Receiver(spec, secretSource(spec.secret(), client, clock)));
    }
    GuardedServer server =
        GuardedServer.start(
            "capstan-webhook-http",
            address.socketAddress(),
            limits,
            new WebhookHandler(receivers, new FetchRequester(client, clock), metrics));
    LOG.info("webhook receivers {} on {}", config, server.address());
    return new WebhookServer(server);
  }

  private static SecretSource secretSource(
      ReceiverSpec.SecretLocation location, KubernetesClient client, Clock clock) {
    if (location.file() != null) {
      return new FileSecret(Path.of(location.file()));
    }
    return new KubernetesSecret(
        client, location.secretNamespace(), location.secretName(), location.key(), clock);
  }

  /** The bound address (the real port when 0 was asked for). */
  public InetSocketAddress address() {
    return server.address();
  }

  @Override
  public void close() {
    server.close();
  }
}
