package dev.capstan.testing;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * How tests reach the cluster they were given: the kubeconfig for processes (kubectl, the capstan
 * jar) and a description of where it came from, for messages.
 */
public record ClusterAccess(Path kubeconfig, ClusterSource source) {

  /** Where a test cluster comes from, in the order they are tried. */
  public enum ClusterSource {
    EXPLICIT_KUBECONFIG,
    LOCAL_CONTROL_PLANE,
    K3S_CONTAINER
  }

  /** A client of the cluster that the kubeconfig file {@code kubeconfig} names. */
  static KubernetesClient openClient(Path kubeconfig) throws IOException {
    return new KubernetesClientBuilder()
        .withConfig(Config.fromKubeconfig(Files.readString(kubeconfig)))
        .build();
  }
}
