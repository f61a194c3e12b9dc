package dev.capstan.applier.cli;

import io.fabric8.kubernetes.client.KubernetesClientException;

/** One-line descriptions of client failures, never a stack trace. */
final class ClusterErrors {

  private ClusterErrors() {}

  static String describe(KubernetesClientException e) {
    if (e.getStatus() != null && e.getStatus().getMessage() != null) {
      return e.getStatus().getMessage();
    }
    Throwable root = e;
    while (root.getCause() != null) {
      root = root.getCause();
    }
    String message = e.getMessage() == null ? "request failed" : e.getMessage().lines().findFirst().orElse("");
    return root == e ? message : message + " (" + root.getClass().getSimpleName() + ": " + root.getMessage() + ")";
  }
}
