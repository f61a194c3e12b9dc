package dev.capstan.source.bucket;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.RecentlyUsed;
import dev.capstan.source.core.SourceException;
import dev.capstan.source.core.proxy.ProxySecret;
import dev.capstan.source.core.store.ArtifactStore;
import dev.capstan.source.core.tls.SecretTls;
import java.net.http.HttpClient;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The HTTP clients of bucket fetches, one per TLS and proxy setting, kept so that the next check of
 * the same bucket reuses a warm connection (an unchanged bucket is then one listing on it). The
 * proxy Secret is read by source-core's {@link ProxySecret}, as the other sources read it, and must
 * name an {@code http://} proxy. The proxy's credentials are a {@code Proxy-Authorization} header
 * of every request, not an {@link java.net.Authenticator}: a client with an authenticator drops the
 * request's own {@code Authorization}, which carries the signature. java.net.http sends the header
 * on a tunnel's CONNECT only, never to the server.
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
      client =
          new Connection(
              build(certSecret, proxy),
              ProxySecret.forHttpClient(proxy).flatMap(ProxySecret::basicAuthorization));
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
    ProxySecret.forHttpClient(proxy).ifPresent(p -> builder.proxy(p.selector()));
    return builder.build();
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
