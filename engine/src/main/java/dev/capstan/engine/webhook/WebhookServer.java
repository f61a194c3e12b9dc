package dev.capstan.engine.webhook;

import com.sun.net.httpserver.HttpServer;
import dev.capstan.engine.ops.ListenAddress;
import dev.capstan.engine.ops.Metrics;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The webhook receiver on {@code --webhook-addr}: each configured receiver at
 * {@code POST /hook/<name>}. A proven push requests an immediate fetch of the receiver's
 * GitRepositories; anything unproven is rejected, counted and logged, never acted on.
 */
public final class WebhookServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(WebhookServer.class);
  static final String PATH_PREFIX = "/hook/";

  private final HttpServer server;
  private final ExecutorService executor;

  private WebhookServer(HttpServer server, ExecutorService executor) {
    this.server = server;
    this.executor = executor;
  }

  /** Binds the address and serves the receivers of {@code config}; fails at once if the address is taken. */
  public static WebhookServer start(ListenAddress address, ReceiverConfig config, KubernetesClient client,
      Metrics metrics, Clock clock) throws IOException {
    Map<String, Receiver> receivers = new LinkedHashMap<>();
    for (ReceiverSpec spec : config.receivers()) {
      receivers.put(spec.name(), new Receiver(spec, secretSource(spec.secret(), client, clock)));
    }
    HttpServer server = HttpServer.create(new InetSocketAddress(address.host().isEmpty() ? null
        : java.net.InetAddress.getByName(address.host()), address.port()), 0);
    ExecutorService executor = Executors.newFixedThreadPool(2, r -> {
      Thread t = new Thread(r, "capstan-webhook-http");
      t.setDaemon(true);
      return t;
    });
    server.setExecutor(executor);
    server.createContext("/", new WebhookHandler(receivers, new ReconcileRequester(client, clock), metrics));
    server.start();
    LOG.info("webhook receivers {} on {}", config, server.getAddress());
    return new WebhookServer(server, executor);
  }

  private static SecretSource secretSource(ReceiverSpec.SecretLocation location, KubernetesClient client,
      Clock clock) {
    if (location.file() != null) {
      return new FileSecret(Path.of(location.file()));
    }
    return new KubernetesSecret(client, location.secretNamespace(), location.secretName(), location.key(), clock);
  }

  /** The bound address (the real port when 0 was asked for). */
  public InetSocketAddress address() {
    return server.getAddress();
  }

  @Override
  public void close() {
    server.stop(1);
    executor.shutdownNow();
  }
}
