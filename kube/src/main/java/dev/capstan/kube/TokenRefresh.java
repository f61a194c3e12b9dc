package dev.capstan.kube;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.fabric8.kubernetes.client.utils.TokenRefreshInterceptor;
import java.util.function.Consumer;

/**
 * Whether a client's token refresh has anything to refresh. The Kubernetes client refreshes the
 * bearer token before a request once a minute by reading the kubeconfig again; it counts a refresh
 * as done only when that finds a token. A user who signs in with a client certificate alone has
 * none, so after the client's first minute every request read and parsed the whole kubeconfig file
 * again: a third of the CPU of an engine that only looks at unchanged objects.
 *
 * <p>Such a client gets a refresh that does nothing: a certificate is read once, when the client is
 * built, whatever the refresh does, and there is no token to set. A client with any token (a
 * service account's, one an exec plugin or an auth provider gives, one written in the kubeconfig)
 * or a username and password (which the same interceptor sends) keeps the client's own refresh.
 */
public final class TokenRefresh {
  private static final Interceptor NOTHING_TO_REFRESH = new Interceptor() {};

  private TokenRefresh() {}

  /**
   * What a client of {@code config} does to its HTTP client builder ({@code
   * KubernetesClientBuilder.withHttpClientBuilderConsumer}): for a certificate alone, the token
   * refresh is taken out; otherwise nothing.
   */
  public static Consumer<HttpClient.Builder> forConfig(Config config) {
    if (!byCertificateAlone(config)) {
      return builder -> {};
    }
    return builder ->
        builder.addOrReplaceInterceptor(TokenRefreshInterceptor.NAME, NOTHING_TO_REFRESH);
  }

  /**
   * Whether {@code config} signs in with a client certificate and nothing else: no token, no
   * username and password.
   */
  static boolean byCertificateAlone(Config config) {
    boolean certificate =
        present(config.getClientCertData()) || present(config.getClientCertFile());
    boolean token =
        present(config.getOauthToken())
            || present(config.getAutoOAuthToken())
            || config.getOauthTokenProvider() != null
            || config.getAuthProvider() != null;
    // the client's refresh is also what sends a username and password (basic auth)
    boolean password = present(config.getUsername()) || present(config.getPassword());
    return certificate && !token && !password;
  }

  private static boolean present(String value) {
    return value != null && !value.isBlank();
  }
}
