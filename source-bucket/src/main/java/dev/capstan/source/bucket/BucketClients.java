package dev.capstan.source.bucket;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.RecentlyUsed;
import dev.capstan.source.core.SourceException;
import dev.capstan.source.core.store.ArtifactStore;
import dev.capstan.source.core.tls.SecretTls;
import java.net.InetSocketAddress;
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The HTTP clients of bucket fetches, one per TLS and proxy setting, kept so that the next check of
 * the same bucket reuses a warm connection (an unchanged bucket is then one listing on it). The
 * proxy Secret is read as the other sources read it: {@code address} ({@code http://host:port}),
 * and {@code username} and {@code password} together or not at all. The proxy's credentials are a
 * {@code Proxy-Authorization} header of every request, not an {@link java.net.Authenticator}: a
 * client with an authenticator drops the request's own {@code Authorization}, which carries the
 * signature. java.net.http sends the header on a tunnel's CONNECT only, never to the server.
 */
final class BucketClients {
  /** Clients kept; a client holds a connection pool and a selector thread. */
  static final int MAX_CLIENTS = 32;

  /** A client, and the {@code Proxy-Authorization} its requests carry, if any. */
  record Connection(HttpClient http, Optional<String> proxyAuthorization) {
    @Override
    public String toString() {
      return "Connection[" + http + "]"; // never the proxy's credentials
    }
  }

  private final Map<String, Connection> clients = new RecentlyUsed<>(MAX_CLIENTS);

  synchronized Connection client(Map<String, byte[]> certSecret, Map<String, byte[]> proxy) {
    String key = keyOf(certSecret) + "|" + keyOf(proxy);
    Connection client = clients.get(key);
    if (client == null) {
      client = new Connection(build(certSecret, proxy), proxyAuthorization(proxy));
      clients.put(key, client);
    }
    return client;
  }

  private static HttpClient build(Map<String, byte[]> certSecret, Map<String, byte[]> proxy) {
    HttpClient.Builder builder =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(30))
            // S3 answers without redirects when addressed by path; one elsewhere is refused.
            .followRedirects(HttpClient.Redirect.NEVER);
    SecretTls tls = SecretTls.read(certSecret, "the cert secret");
    if (tls != null) {
      try {
        builder.sslContext(tls.sslContext());
      } catch (GeneralSecurityException e) {
        throw invalid(
            "the cert secret cannot be used for TLS (" + e.getClass().getSimpleName() + ")");
      }
    }
    if (!proxy.isEmpty()) {
      proxy(builder, proxy);
    }
    return builder.build();
  }

  private static void proxy(HttpClient.Builder builder, Map<String, byte[]> secret) {
    String address = text(secret, "address");
    if (address == null) {
      throw invalid("the proxy secret holds no 'address'");
    }
    URI uri;
    try {
      uri = URI.create(address.strip());
    } catch (IllegalArgumentException e) {
      throw invalid("the proxy secret's address is not a URL");
    }
    if (!"http".equals(uri.getScheme()) || uri.getHost() == null) {
      throw invalid("the proxy secret's address must be http://host:port");
    }
    int port = uri.getPort() < 0 ? 80 : uri.getPort();
    builder.proxy(ProxySelector.of(new InetSocketAddress(uri.getHost(), port)));
  }

  /** {@code Basic <user:password>} of the proxy Secret; empty without credentials. */
  private static Optional<String> proxyAuthorization(Map<String, byte[]> secret) {
    String username = text(secret, "username");
    String password = text(secret, "password");
    if ((username == null) != (password == null)) {
      throw invalid("the proxy secret must hold both username and password, or neither");
    }
    if (username == null) {
      return Optional.empty();
    }
    return Optional.of(
        "Basic "
            + Base64.getEncoder()
                .encodeToString((username + ":" + password).getBytes(StandardCharsets.UTF_8)));
  }

  private static String text(Map<String, byte[]> data, String key) {
    byte[] value = data.get(key);
    return value == null ? null : new String(value, StandardCharsets.UTF_8);
  }

  /** The digest of a Secret's entries: the same settings share a client. */
  private static String keyOf(Map<String, byte[]> data) {
    StringBuilder all = new StringBuilder();
    new TreeMap<>(data)
        .forEach(
            (name, value) ->
                all.append(name)
                    .append('=')
                    .append(Base64.getEncoder().encodeToString(value))
                    .append('\n'));
    return ArtifactStore.sha256Hex(all.toString());
  }

  private static SourceException invalid(String message) {
    return new SourceException(FailureReason.INVALID_SECRET, message);
  }
}
