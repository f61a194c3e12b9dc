package dev.capstan.testing;

import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.Executor;

/**
 * A stand-in for the API server on loopback whose every request a unit test answers itself, and a
 * client of it that does not retry, so that a test sees each request the code under test makes.
 */
public final class LocalApiServer implements AutoCloseable {
  private final HttpServer server;
  private final KubernetesClient client;

  private LocalApiServer(HttpServer server) {
    this.server = server;
    this.client =
        new KubernetesClientBuilder()
            .withConfig(
                new ConfigBuilder()
                    .withMasterUrl("http://127.0.0.1:" + server.getAddress().getPort())
                    .withRequestRetryBackoffLimit(0)
                    .build())
            .build();
  }

  /** A server whose requests {@code handler} answers one at a time. */
  public static LocalApiServer start(HttpHandler handler) throws IOException {
    return start(handler, null);
  }

  /** A server whose requests {@code handler} answers on {@code executor} (null: one at a time). */
  public static LocalApiServer start(HttpHandler handler, Executor executor) throws IOException {
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", handler);
    server.setExecutor(executor);
    server.start();
    return new LocalApiServer(server);
  }

  public KubernetesClient client() {
    return client;
  }

  @Override
  public void close() {
    client.close();
    server.stop(0);
  }
}
