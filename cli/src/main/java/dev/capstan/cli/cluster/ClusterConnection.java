package dev.capstan.cli.cluster;

import dev.capstan.applier.apply.Futures;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.HttpClient;
import java.net.URL;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Opens the client of {@link ClusterOptions} while the command does its other work, and stops it
 * again, opened or still opening, for a command that ends before using it.
 */
final class ClusterConnection {

  private final CompletableFuture<CommandClient> ready = new CompletableFuture<>();
  private final AtomicReference<CommandClient> opened = new AtomicReference<>();
  private volatile boolean discarded;

  private ClusterConnection() {}

  /**
   * Starts opening the client on its own thread: setting up the HTTP client takes about as long as
   * building the manifests, so a command does both at once. The opener also makes one small
   * request, so that the connection and its TLS handshake are done before the command's own
   * requests start: many requests sent at once to a server not yet connected would each open a
   * connection, and each handshake costs a signature with the client's key.
   */
  static ClusterConnection openInBackground(ClusterOptions options) {
    ClusterConnection connection = new ClusterConnection();
    Thread opener = new Thread(() -> connection.open(options), "capstan-connect");
    opener.setDaemon(true);
    opener.start();
    return connection;
  }

  private void open(ClusterOptions options) {
    try {
      CommandClient client = options.open();
      opened.set(client);
      if (discarded) {
        client.close();
        ready.cancel(false);
        return;
      }
      try {
        connect(client.client());
      } catch (RuntimeException e) {
        client.close();
        throw e;
      }
      ready.complete(client);
    } catch (RuntimeException e) {
      ready.completeExceptionally(e);
    }
  }

  /** The opened client; a failure to open is rethrown as it was thrown. */
  CommandClient await() {
    return Futures.joined(ready);
  }

  /**
   * Stops the client for a command that ends before using it, at once, even while it is still
   * connecting: a command that exits with its event loops still running waits for them (see {@link
   * CommandClient}). The opener stops a client it opens after this.
   */
  void discard() {
    discarded = true;
    CommandClient client = opened.get();
    if (client != null) {
      client.close();
    }
  }

  /** Whether a client was opened and has stopped again (for tests). */
  boolean stopped() {
    CommandClient client = opened.get();
    return client != null && client.stopped();
  }

  /**
   * Asks the API server its version. An answer of any status will do (the command's own requests
   * report a refusal with their context); no answer at all is the command's error, reported once,
   * instead of after the command's own requests failed the same way again.
   */
  private static void connect(KubernetesClient client) {
    HttpClient http = client.getHttpClient();
    try {
      http.sendAsync(http.newHttpRequestBuilder().uri(versionUrl(client)).build(), String.class)
          .join();
    } catch (CompletionException e) {
      throw new Unreachable(client.getMasterUrl(), e.getCause());
    }
  }

  /** No answer from the server the kubeconfig names. */
  private static final class Unreachable extends KubernetesClientException {
    private final transient URL server;

    Unreachable(URL server, Throwable cause) {
      super("no answer from " + server, cause);
      this.server = server;
    }
  }

  /** The server a failure to connect was about, or null when it is not known. */
  static URL serverOf(KubernetesClientException e) {
    return e instanceof Unreachable unreachable ? unreachable.server : null;
  }

  private static String versionUrl(KubernetesClient client) {
    String master = client.getMasterUrl().toString();
    return master + (master.endsWith("/") ? "" : "/") + "version";
  }
}
