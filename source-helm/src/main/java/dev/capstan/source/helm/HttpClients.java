package dev.capstan.source.helm;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.RecentlyUsed;
import dev.capstan.source.core.SourceException;
import dev.capstan.source.core.store.ArtifactStore;
import dev.capstan.source.core.tls.SecretTls;
import java.net.http.HttpClient;
import java.security.GeneralSecurityException;
import java.util.Base64;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The HTTP clients of index downloads, one per TLS setting of a Secret, kept so that the next
 * download of the same repository reuses its connection (an unchanged index is then one request on
 * a warm connection). Redirects are followed by the download itself, which decides where the
 * credentials may go.
 */
final class HttpClients {
  /** Clients kept; a client holds a connection pool and a selector thread. */
  static final int MAX_CLIENTS = 32;

  /** The entries SecretTls reads, under their names and their older names. */
  private static final Set<String> TLS_ENTRIES =
      Set.of(SecretTls.CA, SecretTls.CERT, SecretTls.KEY, "caFile", "certFile", "keyFile");

  private final Map<String, HttpClient> clients = new RecentlyUsed<>(MAX_CLIENTS);

  /**
   * The client for a repository whose TLS entries are {@code certSecret} (empty: the JVM's trusted
   * authorities, no client certificate).
   *
   * @throws SourceException {@code InvalidSecret} naming an unusable entry
   */
  synchronized HttpClient client(Map<String, byte[]> certSecret) {
    String key = keyOf(certSecret);
    HttpClient client = clients.get(key);
    if (client == null) {
      client = build(SecretTls.read(certSecret, "the cert secret"));
      clients.put(key, client);
    }
    return client;
  }

  private static HttpClient build(SecretTls tls) {
    HttpClient.Builder builder =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .followRedirects(HttpClient.Redirect.NEVER);
    if (tls != null) {
      try {
        builder.sslContext(tls.sslContext());
      } catch (GeneralSecurityException e) {
        throw new SourceException(
            FailureReason.INVALID_SECRET,
            "the cert secret cannot be used for TLS (" + e.getClass().getSimpleName() + ")");
      }
    }
    return builder.build();
  }

  /**
   * The digest of the TLS entries: the same certificates share a client, whoever names them; the
   * Secret's other entries (a password beside them) take no part.
   */
  private static String keyOf(Map<String, byte[]> certSecret) {
    StringBuilder all = new StringBuilder();
    new TreeMap<>(certSecret)
        .forEach(
            (name, value) -> {
              if (TLS_ENTRIES.contains(name)) {
                all.append(name)
                    .append('=')
                    .append(Base64.getEncoder().encodeToString(value))
                    .append('\n');
              }
            });
    return ArtifactStore.sha256Hex(all.toString());
  }
}
