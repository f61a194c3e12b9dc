package dev.capstan.testing;

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
}
