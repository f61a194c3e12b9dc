package dev.capstan.engine.remote;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.HttpClient;
import java.time.Duration;
import java.util.Optional;

/**
 * Builds a client for a remote API server from inline data only: the configuration starts empty, so
 * nothing of the engine's environment (its kubeconfig, its service account, proxy variables, system
 * properties) is added to it. Its clients run on the event loops of {@code http}, which their owner
 * closes.
 */
public final class RemoteClientFactory {
  private final Duration connectTimeout;
  private final Duration requestTimeout;
  private final HttpClient.Factory http;

  public RemoteClientFactory(
      Duration connectTimeout, Duration requestTimeout, HttpClient.Factory http) {
    this.connectTimeout = connectTimeout;
    this.requestTimeout = requestTimeout;
    this.http = http;
  }

  /** 10 s to connect, 30 s a request, on the event loops of {@code http}. */
  public static RemoteClientFactory defaults(HttpClient.Factory http) {
    return new RemoteClientFactory(Duration.ofSeconds(10), Duration.ofSeconds(30), http);
  }

  /** A client for {@code connection}, impersonating {@code username} when present. */
  KubernetesClient client(RemoteConnection connection, Optional<String> username) {
    ConfigBuilder config =
        new ConfigBuilder(Config.empty())
            .withAutoConfigure(false)
            .withMasterUrl(connection.server())
            .withTrustCerts(connection.insecureSkipTlsVerify())
            .withConnectionTimeout((int) connectTimeout.toMillis())
            .withRequestTimeout((int) requestTimeout.toMillis())
            .withRequestRetryBackoffLimit(2)
            // HTTP/1.1: an API server ends an HTTP/2 connection that failed authentication with
            // GOAWAY,
            // which the client reports instead of the 401, and the status would not say why.
            .withHttp2Disable(true);
    if (connection.caData() != null) {
      config.withCaCertData(connection.caData());
    }
    if (connection.clientCertData() != null) {
      config
          .withClientCertData(connection.clientCertData())
          .withClientKeyData(connection.clientKeyData());
    }
    if (connection.token() != null) {
      config.withOauthTokenProvider(connection.token()::get);
    }
    if (connection.username() != null) {
      config.withUsername(connection.username()).withPassword(connection.password());
    }
    username.ifPresent(u -> config.withImpersonateUsername(u).withImpersonateGroups());
    return new KubernetesClientBuilder()
        .withHttpClientFactory(http)
        .withConfig(config.build())
        .build();
  }
}
