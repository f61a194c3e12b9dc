package dev.capstan.applier;

import dev.capstan.kube.ApiErrors;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.ConnectException;
import java.net.URL;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.util.Optional;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLException;

/** One-line descriptions of what went wrong talking to the cluster, never a stack trace. */
public final class ClusterErrors {
  private static final String HINT =
      " (is the cluster running? choose another with --kubeconfig or $KUBECONFIG)";

  private ClusterErrors() {}

  public static String describe(KubernetesClientException e, URL server) {
    String where = server == null ? "the cluster" : "the cluster at " + server;
    if (inChain(e, ConnectException.class)) {
      return "cannot reach " + where + ": connection refused" + HINT;
    }
    if (inChain(e, UnknownHostException.class) || inChain(e, UnresolvedAddressException.class)) {
      String host = server == null ? "" : " " + server.getHost();
      return "cannot reach " + where + ": unknown host" + host + HINT;
    }
    if (inChain(e, HttpConnectTimeoutException.class)
        || inChain(e, HttpTimeoutException.class)
        || inChain(e, TimeoutException.class)) {
      return "cannot reach " + where + ": timed out" + HINT;
    }
    Throwable tls = find(e, SSLException.class);
    if (tls != null) {
      return "TLS with " + where + " failed: " + firstLine(tls.getMessage());
    }
    if (e.getCode() == 401) {
      return where + " rejected the kubeconfig's credentials (401 Unauthorized)";
    }
    Optional<String> answer = ApiErrors.message(e);
    if (answer.isPresent()) {
      return answer.get();
    }
    Throwable root = rootCause(e);
    String message = firstLine(e.getMessage());
    return root == e
        ? message
        : message
            + " ("
            + root.getClass().getSimpleName()
            + ": "
            + firstLine(root.getMessage())
            + ")";
  }

  /** The innermost cause of {@code e}, or {@code e} itself. */
  public static Throwable rootCause(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return root;
  }

  private static boolean inChain(Throwable e, Class<? extends Throwable> type) {
    return find(e, type) != null;
  }

  private static Throwable find(Throwable e, Class<? extends Throwable> type) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (type.isInstance(t)) {
        return t;
      }
    }
    return null;
  }

  private static String firstLine(String text) {
    return text == null ? "request failed" : text.lines().findFirst().orElse("request failed");
  }
}
