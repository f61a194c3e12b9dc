package dev.capstan.source.oci;

import dev.capstan.source.core.RecentlyUsed;
import dev.capstan.source.core.proxy.ProxySecret;
import java.net.Authenticator;
import java.net.PasswordAuthentication;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;

/**
 * The HTTP clients pulls go through, one per TLS, proxy and insecure setting and registry host (a
 * client certificate is offered to that host only), kept so that an unchanged pull reuses a warm
 * connection (a new client is a new TLS handshake). At most {@link #MAX} are kept; the least
 * recently used is dropped beyond.
 */
final class Transports {
  static final int MAX = 64;

  private final Map<String, HttpClient> clients = new RecentlyUsed<>(MAX);

  synchronized HttpClient client(
      Map<String, byte[]> certSecret,
      Map<String, byte[]> proxySecret,
      boolean insecure,
      String registryHost) {
    String key = keyOf(certSecret, proxySecret, insecure) + "|" + registryHost;
    return clients.computeIfAbsent(
        key, k -> build(certSecret, proxySecret, insecure, registryHost));
  }

  private static HttpClient build(
      Map<String, byte[]> certSecret,
      Map<String, byte[]> proxySecret,
      boolean insecure,
      String registryHost) {
    HttpClient.Builder builder =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(30))
            // Redirects are followed by hand: credentials must stay with the registry's origin.
            .followRedirects(HttpClient.Redirect.NEVER)
            .sslContext(TlsSettings.context(certSecret, insecure, registryHost));
    if (!proxySecret.isEmpty()) {
      proxy(builder, proxySecret);
    }
    return builder.build();
  }

  private static void proxy(HttpClient.Builder builder, Map<String, byte[]> secret) {
    ProxySecret proxy = ProxySecret.forHttpClient(secret).orElseThrow();
    builder.proxy(proxy.selector());
    if (proxy.hasCredentials()) {
      builder.authenticator(new ProxyOnly(proxy.username(), proxy.password().toCharArray()));
    }
  }

  private static String keyOf(
      Map<String, byte[]> certSecret, Map<String, byte[]> proxySecret, boolean insecure) {
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      for (Map<String, byte[]> data : new Map[] {certSecret, proxySecret}) {
        for (var entry : new TreeMap<>(data).entrySet()) {
          digest.update(entry.getKey().getBytes(StandardCharsets.UTF_8));
          digest.update((byte) 0);
          digest.update(entry.getValue());
          digest.update((byte) 0);
        }
        digest.update((byte) 1);
      }
      digest.update((byte) (insecure ? 1 : 0));
      return HexFormat.of().formatHex(digest.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every Java runtime", e);
    }
  }

  /** Answers the proxy's challenge only, never a registry's. */
  private static final class ProxyOnly extends Authenticator {
    private final String username;
    private final char[] password;

    ProxyOnly(String username, char[] password) {
      this.username = username;
      this.password = password;
    }

    @Override
    protected PasswordAuthentication getPasswordAuthentication() {
      return getRequestorType() == RequestorType.PROXY
          ? new PasswordAuthentication(username, password.clone())
          : null;
    }
  }
}
