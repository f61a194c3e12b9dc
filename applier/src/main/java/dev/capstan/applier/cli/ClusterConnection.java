package dev.capstan.applier.cli;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.nio.file.Path;

/** Opens a client from {@code --kubeconfig}, or from $KUBECONFIG / ~/.kube/config as kubectl does. */
final class ClusterConnection {

  private ClusterConnection() {}

  static KubernetesClient open(Path kubeconfig) {
    Config config =
        kubeconfig == null ? Config.autoConfigure(null) : Config.fromKubeconfig(kubeconfig.toFile());
    return new KubernetesClientBuilder().withConfig(config).build();
  }

  /** The namespace of the kubeconfig's current context, "default" when it names none. */
  static String defaultNamespace(KubernetesClient client) {
    String namespace = client.getNamespace();
    return namespace == null || namespace.isEmpty() ? "default" : namespace;
  }
}
