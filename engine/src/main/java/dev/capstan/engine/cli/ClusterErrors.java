package dev.capstan.engine.cli;

import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.ConnectException;
import java.net.URL;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLException;

/** One-line descriptions of what went wrong talking to the cluster, never a stack trace. */
final class ClusterErrors {
  private static final String HINT = " (is the cluster running? choose another with --kubeconfig or $KUBECONFIG)";

  private ClusterErrors() {}

  static String describe(KubernetesClientException e, URL server) {
    String where = server == null ? "the cluster" : "the cluster at " + server;
    Throwable root = rootCause(e);
    if (root instanceof ConnectException) {
      return "cannot reach " + where + ": connection refused" + HINT;
    }
    if (root instanceof UnknownHostException) {
      return "cannot reach " + where + ": unknown host " + root.getMessage() + HINT;
    }
    if (root instanceof HttpConnectTimeoutException || root instanceof HttpTimeoutException
        || root instanceof TimeoutException) {
      return "cannot reach " + where + ": timed out" + HINT;
    }
    if (root instanceof SSLException) {
      return "TLS with " + where + " failed: " + firstLine(root.getMessage());
    }
    if (e.getCode() == 401) {
      return where + " rejected the kubeconfig's credentials (401 Unauthorized)";
    }
    if (e.getStatus() != null && e.getStatus().getMessage() != null) {
      return e.getStatus().getMessage();
    }
    String message = firstLine(e.getMessage());
    return root == e ? message : message + " (" + root.getClass().getSimpleName() + ": "
        + firstLine(root.getMessage()) + ")";
  }

  private static Throwable rootCause(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return root;
  }

  private static String firstLine(String text) {
    return text == null ? "request failed" : text.lines().findFirst().orElse("request failed");
  }
}
