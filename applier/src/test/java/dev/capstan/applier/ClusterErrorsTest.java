package dev.capstan.applier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URL;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.UnresolvedAddressException;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.Test;

class ClusterErrorsTest {
  private static final URL SERVER = url("https://127.0.0.1:6443/");

  private static URL url(String text) {
    try {
      return new URL(text);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static KubernetesClientException wrapping(Throwable cause) {
    return new KubernetesClientException(
        "Operation: [list] for kind: [Kustomization] failed.", cause);
  }

  @Test
  void aRefusedConnectionAnywhereInTheChainIsNamed() {
    ConnectException refused = new ConnectException("Connection refused");
    refused.initCause(new ClosedChannelException());
    assertEquals(
        "cannot reach the cluster at https://127.0.0.1:6443/: connection refused (is the cluster"
            + " running? choose another with --kubeconfig or $KUBECONFIG)",
        ClusterErrors.describe(wrapping(new IOException("request failed", refused)), SERVER));
  }

  @Test
  void anUnresolvableHostIsNamed() {
    String message =
        ClusterErrors.describe(
            wrapping(new UnresolvedAddressException()),
            url("https://cluster.example.invalid:6443/"));
    assertTrue(
        message.startsWith(
            "cannot reach the cluster at https://cluster.example.invalid:6443/: unknown host"
                + " cluster.example.invalid"),
        message);
  }

  @Test
  void tlsFailuresSaySo() {
    String message =
        ClusterErrors.describe(
            wrapping(new SSLHandshakeException("PKIX path building failed\nmore")), SERVER);
    assertEquals(
        "TLS with the cluster at https://127.0.0.1:6443/ failed: PKIX path building failed",
        message);
  }

  @Test
  void theServersOwnMessageIsUsedWhenItGivesOne() {
    KubernetesClientException forbidden =
        new KubernetesClientException(
            new StatusBuilder()
                .withCode(403)
                .withMessage(
                    "kustomizations.kustomize.capstan.dev is forbidden: User \"dev\" cannot list"
                        + " resource")
                .build());
    assertEquals(
        "kustomizations.kustomize.capstan.dev is forbidden: User \"dev\" cannot list resource",
        ClusterErrors.describe(forbidden, SERVER));
  }

  @Test
  void unauthorizedNamesTheCredentials() {
    KubernetesClientException unauthorized =
        new KubernetesClientException(
            new StatusBuilder().withCode(401).withMessage("Unauthorized").build());
    assertEquals(
        "the cluster at https://127.0.0.1:6443/ rejected the kubeconfig's credentials (401"
            + " Unauthorized)",
        ClusterErrors.describe(unauthorized, SERVER));
  }

  @Test
  void anythingElseIsOneLineWithItsRootCause() {
    String message =
        ClusterErrors.describe(wrapping(new IllegalStateException("boom\nsecond line")), SERVER);
    assertEquals(
        "Operation: [list] for kind: [Kustomization] failed. (IllegalStateException: boom)",
        message);
  }
}
