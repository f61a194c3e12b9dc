package dev.capstan.source.oci;

import dev.capstan.source.core.RecentlyUsed;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * Registry tokens kept until shortly before they expire, per registry, repository, access and
 * credentials, so an unchanged pull sends one request rather than a challenge, a token request and
 * the request again. At most {@link #MAX} are kept.
 */
final class TokenCache {
  static final int MAX = 1024;

  private final Clock clock;
  private final Map<String, Entry> entries = new RecentlyUsed<>(MAX);

  private record Entry(String header, Instant expires) {}

  TokenCache(Clock clock) {
    this.clock = clock;
  }

  synchronized Optional<String> header(String key) {
    Entry entry = entries.get(key);
    if (entry == null || !clock.instant().isBefore(entry.expires())) {
      entries.remove(key);
      return Optional.empty();
    }
    return Optional.of(entry.header());
  }

  synchronized void put(String key, String header, Instant expires) {
    entries.put(key, new Entry(header, expires));
  }

  synchronized void forget(String key) {
    entries.remove(key);
  }
}
