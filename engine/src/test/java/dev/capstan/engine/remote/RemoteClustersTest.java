package dev.capstan.engine.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import dev.capstan.api.common.SecretKeyReference;
import dev.capstan.api.kustomize.KubeConfigReference;
import dev.capstan.engine.core.NamespacedName;
import dev.capstan.engine.http.ClientEventLoops;
import dev.capstan.testing.LocalApiServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The remote cluster of a HelmRelease's spec.kubeConfig, read from a Secret of the engine's cluster
 * (here an API server answering Secret reads): what cannot be used says which Secret and key, never
 * its content, and tells a missing Secret apart.
 */
class RemoteClustersTest {
  private static final NamespacedName RELEASE = new NamespacedName("apps", "podinfo");
  private static final KubeConfigReference REF =
      new KubeConfigReference(new SecretKeyReference("remote", null), null);
  private static final String KUBECONFIG =
      """
      apiVersion: v1
      kind: Config
      current-context: remote
      contexts:
      - name: remote
        context: {cluster: remote, user: deployer}
      clusters:
      - name: remote
        cluster: {server: "https://127.0.0.1:1", certificate-authority-data: Q0EtREFUQQ==}
      users:
      - name: deployer
        user: {token: secret-token-never-shown}
      """;

  /** The Secrets of namespace apps, by name: their data, unencoded. */
  private final Map<String, Map<String, String>> secrets = new ConcurrentHashMap<>();

  private LocalApiServer api;
  private RemoteClusters<String> remotes;
  private final ClientEventLoops eventLoops = ClientEventLoops.start();

  @BeforeEach
  void start() throws IOException {
    api = LocalApiServer.start(this::answer);
    remotes =
        new RemoteClusters<>(
            api.client(),
            new RemoteClientFactory(
                Duration.ofSeconds(2), Duration.ofSeconds(2), eventLoops.http()),
            c -> "acting",
            10);
  }

  @AfterEach
  void stop() {
    remotes.close();
    eventLoops.close();
    api.close();
  }

  @Test
  void aMissingSecretIsNamedAndToldApart() {
    RemoteClusterException e =
        assertThrows(
            RemoteClusterException.class, () -> remotes.remoteFor(RELEASE, REF, Optional.empty()));

    assertTrue(e.getMessage().contains("Secret 'apps/remote'"), e.getMessage());
    assertTrue(e.referenceMissing());
  }

  @Test
  void aMalformedKubeconfigNamesTheSecretAndKeyNotItsContent() {
    secrets.put("remote", Map.of("value", "clusters: [this is: {not a kubeconfig"));

    RemoteClusterException e =
        assertThrows(
            RemoteClusterException.class, () -> remotes.remoteFor(RELEASE, REF, Optional.empty()));

    assertTrue(e.getMessage().contains("Secret 'apps/remote' key 'value'"), e.getMessage());
    assertFalse(e.getMessage().contains("this is"), e.getMessage());
    assertFalse(e.referenceMissing());
  }

  @Test
  void anUnreachableApiServerIsNamedWithoutTheCredentials() {
    secrets.put("remote", Map.of("value.yaml", KUBECONFIG));

    RemoteClusters.Remote<String> remote =
        remotes.remoteFor(RELEASE, REF, Optional.of(new NamespacedName("apps", "deployer")));
    RemoteClusterException e =
        assertThrows(RemoteClusterException.class, () -> remotes.checkReachable(remote));

    assertEquals(
        "the API server of the remote cluster of Secret 'apps/remote' key 'value.yaml' cannot be"
            + " reached: connection refused",
        e.getMessage());
    assertFalse(e.referenceMissing());
    assertEquals("acting", remote.acting());
    assertEquals(1, remotes.cachedClients());
    remotes.forget(RELEASE);
    assertEquals(0, remotes.cachedClients());
  }

  private void answer(HttpExchange exchange) throws IOException {
    String path = exchange.getRequestURI().getPath();
    String prefix = "/api/v1/namespaces/apps/secrets/";
    Map<String, String> data =
        path.startsWith(prefix) ? secrets.get(path.substring(prefix.length())) : null;
    byte[] body;
    int code;
    if (data == null) {
      code = 404;
      body =
          ("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"reason\":"
                  + "\"NotFound\",\"code\":404,\"message\":\"not found\"}")
              .getBytes(StandardCharsets.UTF_8);
    } else {
      StringBuilder encoded = new StringBuilder();
      data.forEach(
          (k, v) ->
              encoded
                  .append(encoded.isEmpty() ? "" : ",")
                  .append('"')
                  .append(k)
                  .append("\":\"")
                  .append(Base64.getEncoder().encodeToString(v.getBytes(StandardCharsets.UTF_8)))
                  .append('"'));
      code = 200;
      body =
          ("{\"kind\":\"Secret\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"remote\","
                  + "\"namespace\":\"apps\",\"uid\":\"u1\",\"resourceVersion\":\"1\"},\"data\":{"
                  + encoded
                  + "}}")
              .getBytes(StandardCharsets.UTF_8);
    }
    exchange.getResponseHeaders().add("Content-Type", "application/json");
    exchange.sendResponseHeaders(code, body.length);
    exchange.getResponseBody().write(body);
    exchange.close();
  }
}
