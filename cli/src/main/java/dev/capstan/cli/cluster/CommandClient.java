package dev.capstan.cli.cluster;

import dev.capstan.kube.TokenRefresh;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.vertx.VertxHttpClientFactory;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.file.FileSystemOptions;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A command's client together with the event loops its HTTP requests run on, which closing it stops
 * and waits for. The client library, left to itself, only asks its event loops to stop; a JVM that
 * exits while they still wait in the kernel for network events waits for them up to 0.3 s, which
 * every command that talked to a cluster paid on exit.
 */
final class CommandClient implements AutoCloseable {

  /** How long closing waits for the event loops; they stop in milliseconds once idle. */
  private static final Duration STOP_WAIT = Duration.ofSeconds(2);

  private static final String NO_DNS_RESOLVER = "vertx.disableDnsResolver";

  private final Vertx eventLoops;
  private final KubernetesClient client;

  private CommandClient(Vertx eventLoops, KubernetesClient client) {
    this.eventLoops = eventLoops;
    this.client = client;
  }

  /** A client for {@code config} on event loops of its own. */
  static CommandClient open(Config config) {
    Vertx eventLoops = eventLoops();
    try {
      KubernetesClient client =
          new KubernetesClientBuilder()
              .withConfig(config)
              .withHttpClientFactory(new VertxHttpClientFactory(eventLoops))
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
      awaitStopped();
    }
  }

  /** Whether the event loops have stopped, for tests. */
  boolean stopped() {
    return eventLoops.nettyEventLoopGroup().isTerminated();
  }

  private void awaitStopped() {
    try {
      eventLoops
          .close()
          .toCompletionStage()
          .toCompletableFuture()
          .get(STOP_WAIT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException | TimeoutException e) {
      // the loops are daemon threads: at worst the JVM waits for them a moment at exit
    }
  }

  /**
   * Event loops as the client library makes its own: daemon threads, no file cache and the JDK's
   * name resolution (Vert.x reads the property only while it starts).
   */
  private static Vertx eventLoops() {
    boolean set = System.getProperty(NO_DNS_RESOLVER) == null;
    if (set) {
      System.setProperty(NO_DNS_RESOLVER, "true");
    }
    try {
      return Vertx.vertx(
          new VertxOptions()
              .setUseDaemonThread(true)
              .setFileSystemOptions(
                  new FileSystemOptions()
                      .setFileCachingEnabled(false)
                      .setClassPathResolvingEnabled(false)));
    } finally {
      if (set) {
        System.clearProperty(NO_DNS_RESOLVER);
      }
    }
  }
}
