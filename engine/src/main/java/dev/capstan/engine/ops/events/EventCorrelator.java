package dev.capstan.engine.ops.events;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Decides what an event becomes, following Kubernetes' own event correlation so that a retry loop
 * cannot flood the API server or bury useful events:
 *
 * <ul>
 *   <li>the same object, type, reason and message again updates the existing Event's count and last
 *       timestamp instead of creating a new one;
 *   <li>more than {@code similarLimit} different messages with the same object, type and reason
 *       within {@code similarWindow} are combined into one Event;
 *   <li>each object has a token bucket (a burst, then one event per refill interval); events beyond
 *       it are dropped.
 * </ul>
 *
 * Thread-safe; time comes from the injected clock.
 */
final class EventCorrelator {
  static final String COMBINED_PREFIX = "(combined from similar events): ";

  /** Limits; {@link #defaults()} are those of Kubernetes' own recorder. */
  record Limits(TokenBucket.Rate rate, int similarLimit, Duration similarWindow, int cacheSize) {
    static Limits defaults() {
      return new Limits(
          new TokenBucket.Rate(25, Duration.ofMinutes(5)), 10, Duration.ofMinutes(10), 4096);
    }
  }

  private record SeriesKey(
      InvolvedObject object, EventType type, EventReason reason, String message) {}

  private record SimilarKey(InvolvedObject object, EventType type, EventReason reason) {}

  private static final class Series {
    final String name;
    final Instant first;
    int count;

    Series(String name, Instant first) {
      this.name = name;
      this.first = first;
    }
  }

  private static final class Similar {
    Instant windowStart;
    final Set<String> messages = new HashSet<>();

    Similar(Instant windowStart) {
      this.windowStart = windowStart;
    }
  }

  private final Clock clock;
  private final Limits limits;
  private final Map<SeriesKey, Series> series;
  private final Map<SimilarKey, Similar> similar;
  private final Map<InvolvedObject, TokenBucket> buckets;
  private long lastNameNanos;

  EventCorrelator(Clock clock, Limits limits) {
    this.clock = clock;
    this.limits = limits;
    this.series = lru(limits.cacheSize());
    this.similar = lru(limits.cacheSize());
    this.buckets = lru(limits.cacheSize());
  }

  /** The event to write, or empty when the object's rate limit dropped it. */
  synchronized Optional<CorrelatedEvent> correlate(
      InvolvedObject object, EventType type, EventReason reason, String message) {
    Instant now = clock.instant();
    if (!buckets.computeIfAbsent(object, o -> new TokenBucket(limits.rate(), now)).tryTake(now)) {
      return Optional.empty();
    }
    boolean combined = isCombined(new SimilarKey(object, type, reason), message, now);
    // All combined messages share one series, so a flood of varying messages is one Event.
    SeriesKey key = new SeriesKey(object, type, reason, combined ? COMBINED_PREFIX : message);
    String effective = combined ? COMBINED_PREFIX + message : message;
    Series s = series.get(key);
    if (s == null) {
      s = new Series(eventName(object, now), now);
      series.put(key, s);
    }
    s.count++;
    return Optional.of(
        new CorrelatedEvent(object, type, reason, effective, s.name, s.count, s.first, now));
  }

  /** The Event for this key could not be updated (expired on the server): start a new series. */
  synchronized void forget(CorrelatedEvent event) {
    series.values().removeIf(s -> s.name.equals(event.name()));
  }

  private boolean isCombined(SimilarKey key, String message, Instant now) {
    Similar s = similar.computeIfAbsent(key, k -> new Similar(now));
    if (Duration.between(s.windowStart, now).compareTo(limits.similarWindow()) > 0) {
      s.windowStart = now;
      s.messages.clear();
    }
    if (s.messages.size() < limits.similarLimit()) {
      s.messages.add(message);
    }
    return s.messages.size() >= limits.similarLimit() && !s.messages.contains(message);
  }

  private String eventName(InvolvedObject object, Instant now) {
    long nanos = now.getEpochSecond() * 1_000_000_000L + now.getNano();
    lastNameNanos = Math.max(lastNameNanos + 1, nanos);
    return object.name() + "." + Long.toHexString(lastNameNanos);
  }

  private static <K, V> Map<K, V> lru(int size) {
    return new LinkedHashMap<>(16, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
        return size() > size;
      }
    };
  }
}
