package dev.capstan.cli.cluster;

import dev.capstan.applier.apply.Futures;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.HttpClient;
import java.net.URL;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/** Opens the client of {@link ClusterOptions} while the command does its other work. */
final class ClusterConnection {

  private ClusterConnection() {}

  /**
   * Starts opening the client on its own thread: setting up the HTTP client takes about as long as
   * building the manifests, so a command does both at once. The opener also makes one small
   * request, so that the connection and its TLS handshake are done before the command's own
   * requests start: many requests sent at once to a server not yet connected would each open a
   * connection, and each handshake costs a signature with the client's key.
   */
  static CompletableFuture<CommandClient> openInBackground(ClusterOptions options) {
    CompletableFuture<CommandClient> client = new CompletableFuture<>();
    Thread opener =
        new Thread(
            () -> {
              try {
                CommandClient opened = options.open();
                try {
                  connect(opened.client());
                } catch (RuntimeException e) {
                  opened.close();
                  throw e;
                }
                client.complete(opened);
              } catch (RuntimeException e) {
                client.completeExceptionally(e);
              }
            },
            "capstan-connect");
    opener.setDaemon(true);
    opener.start();
    return client;
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

  /** The opened client; a failure to open is rethrown as it was thrown. */
  static CommandClient await(CompletableFuture<CommandClient> client) {
    return Futures.joined(client);
  }

  /** Closes the client once it is open, for commands that stop before using it. */
  static void discard(CompletableFuture<CommandClient> client) {
    client.thenAccept(CommandClient::close);
  }
}
