package dev.capstan.source.core;

import io.soabase.recordbuilder.core.RecordBuilder;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What every fetch request names, whatever the kind of source: the source, where it is, the ignore
 * rules of its tree, how long the fetch may take and the proxy it goes through.
 *
 * @param key identifies the source across fetches (e.g. {@code namespace/name}); the artifact
 *     store's key of its state
 * @param url the remote, in a form the kind of source accepts
 * @param ignore extra ignore rules in gitignore syntax ({@code spec.ignore}), or null
 * @param timeout the time the whole fetch may take, or null for the kind's default
 * @param proxy the data of the proxy Secret ({@code address}, optional {@code username} and {@code
 *     password}); empty for a direct connection
 */
@RecordBuilder
public record FetchTarget(
    String key, String url, String ignore, Duration timeout, Map<String, byte[]> proxy)
    implements FetchTargetBuilder.With {

  public FetchTarget {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(url, "url");
    proxy = proxy == null ? Map.of() : Map.copyOf(proxy);
  }

  public static FetchTarget of(String key, String url) {
    return new FetchTarget(key, url, null, null, null);
  }

  /** The proxy Secret's values but its address: what a message must never show. */
  public List<byte[]> proxyCredentials() {
    return proxy.entrySet().stream()
        .filter(e -> !e.getKey().equals("address"))
        .map(Map.Entry::getValue)
        .toList();
  }

  @Override
  public String toString() {
    // Never print secret values, nor the URL's user information.
    return "key=" + key + ", url=" + Redaction.scrubUrl(url) + ", proxyKeys=" + proxy.keySet();
  }
}
