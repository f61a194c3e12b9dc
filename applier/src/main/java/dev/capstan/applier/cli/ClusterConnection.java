package dev.capstan.applier.cli;

import dev.capstan.applier.apply.Futures;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;

/** Opens a client from {@code --kubeconfig}, or from $KUBECONFIG / ~/.kube/config as kubectl does. */
final class ClusterConnection {

  private ClusterConnection() {}

  static KubernetesClient open(Path kubeconfig) {
    Config config =
        kubeconfig == null ? Config.autoConfigure(null) : Config.fromKubeconfig(kubeconfig.toFile());
    // The JDK's HTTP client, named explicitly: with several on the class path the library would
    // pick one at random (and warn), and this one starts quicker for a short-lived command.
    return new KubernetesClientBuilder()
        .withConfig(config)
        .withHttpClientFactory(new JdkHttpClientFactory())
        .build();
  }

  /**
   * Starts opening the client on its own thread: setting up the HTTP client takes about as long
   * as building the manifests, so a command does both at once.
   */
  static CompletableFuture<KubernetesClient> openInBackground(Path kubeconfig) {
    CompletableFuture<KubernetesClient> client = new CompletableFuture<>();
    Thread opener =
        new Thread(
            () -> {
              try {
                client.complete(open(kubeconfig));
              } catch (RuntimeException e) {
                client.completeExceptionally(e);
              }
            },
            "capstan-connect");
    opener.setDaemon(true);
    opener.start();
    return client;
  }

  /** The opened client; a failure to open is rethrown as it was thrown. */
  static KubernetesClient await(CompletableFuture<KubernetesClient> client) {
    return Futures.joined(client);
  }

  /** Closes the client once it is open, for commands that stop before using it. */
  static void discard(CompletableFuture<KubernetesClient> client) {
    client.thenAccept(KubernetesClient::close);
  }

  /** The namespace of the kubeconfig's current context, "default" when it names none. */
  static String defaultNamespace(KubernetesClient client) {
    String namespace = client.getNamespace();
    return namespace == null || namespace.isEmpty() ? "default" : namespace;
  }
}
