package dev.capstan.cli.cluster;

import dev.capstan.engine.http.ClientEventLoops;
import dev.capstan.kube.TokenRefresh;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.time.Duration;

/**
 * A command's client together with the event loops its HTTP requests run on, which closing it stops
 * and waits for. The client library, left to itself, only asks its event loops to stop; a JVM that
 * exits while they still wait in the kernel for network events waits for them up to 0.3 s, which
 * every command that talked to a cluster paid on exit.
 */
final class CommandClient implements AutoCloseable {

  /** How long closing waits for the event loops; they stop in milliseconds once idle. */
  private static final Duration STOP_WAIT = Duration.ofSeconds(2);

  private final ClientEventLoops eventLoops;
  private final KubernetesClient client;

  private CommandClient(ClientEventLoops eventLoops, KubernetesClient client) {
    this.eventLoops = eventLoops;
    this.client = client;
  }

  /** A client for {@code config} on event loops of its own. */
  static CommandClient open(Config config) {
    ClientEventLoops eventLoops = ClientEventLoops.start();
    try {
      KubernetesClient client =
          new KubernetesClientBuilder()
              .withConfig(config)
              .withHttpClientFactory(eventLoops.http())
              .withHttpClientBuilderConsumer(TokenRefresh.forConfig(config))
              .build();
      return new CommandClient(eventLoops, client);
    } catch (RuntimeException e) {
      eventLoops.close();
      throw e;
    }
  }

  KubernetesClient client() {
    return client;
  }

  /**
   * Closes the client, then stops its event loops and waits, at most {@link #STOP_WAIT}. A second
   * caller waits for the first: Vert.x answers a second close at once, stopped or not.
   */
  @Override
  public synchronized void close() {
    try {
      client.close();
    } finally {
      eventLoops.close(STOP_WAIT);
    }
  }

  /** Whether the event loops have stopped, for tests. */
  boolean stopped() {
    return eventLoops.stopped();
  }
}
