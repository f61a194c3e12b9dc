package dev.capstan.engine.http;

import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.vertx.VertxHttpClientFactory;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.file.FileSystemOptions;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Event loops for Kubernetes clients, shared by every client built on {@link #http}. The client
 * library, left to itself, starts a set for each client: its own loop threads, blocked-thread
 * checker and internal workers, each holding memory for as long as the client lives. Made as the
 * library makes its own: daemon threads, no file cache, the JDK's name resolution. Whoever starts
 * them closes them, after the clients built on them.
 */
public final class ClientEventLoops implements AutoCloseable {
  private static final String NO_DNS_RESOLVER = "vertx.disableDnsResolver";

  private final Vertx vertx;
  private final HttpClient.Factory http;

  private ClientEventLoops(Vertx vertx) {
    this.vertx = vertx;
    this.http = new VertxHttpClientFactory(vertx);
  }

  public static ClientEventLoops start() {
    // Vert.x reads the property only while it starts.
    boolean set = System.getProperty(NO_DNS_RESOLVER) == null;
    if (set) {
      System.setProperty(NO_DNS_RESOLVER, "true");
    }
    try {
      return new ClientEventLoops(
          Vertx.vertx(
              new VertxOptions()
                  .setUseDaemonThread(true)
                  .setFileSystemOptions(
                      new FileSystemOptions()
                          .setFileCachingEnabled(false)
                          .setClassPathResolvingEnabled(false))));
    } finally {
      if (set) {
        System.clearProperty(NO_DNS_RESOLVER);
      }
    }
  }

  /** The HTTP clients of the Kubernetes clients that run on these loops. */
  public HttpClient.Factory http() {
    return http;
  }

  /** Whether the loops have stopped. */
  public boolean stopped() {
    return vertx.nettyEventLoopGroup().isTerminated();
  }

  /**
   * Stops the loops and waits for them, at most {@code wait}: a JVM that exits while they still
   * wait in the kernel for network events waits for them up to 0.3 s.
   */
  public void close(Duration wait) {
    try {
      vertx
          .close()
          .toCompletionStage()
          .toCompletableFuture()
          .get(wait.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException | TimeoutException e) {
      // the loops are daemon threads: at worst the JVM waits for them a moment at exit
    }
  }

  /** Asks the loops to stop, without waiting. */
  @Override
  public void close() {
    vertx.close();
  }
}
