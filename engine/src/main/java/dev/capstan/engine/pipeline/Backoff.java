package dev.capstan.engine.pipeline;

import java.time.Duration;

/**
 * Exponential backoff for retries after transient failures: {@code base}, twice that, and so on,
 * never more than the cap (the Kustomization's retryInterval). Pure.
 */
public record Backoff(Duration base) {

  public static Backoff defaults() {
    return new Backoff(Duration.ofSeconds(1));
  }

  /** The delay before retry number {@code attempt} (1 for the first retry). */
  public Duration delay(int attempt, Duration cap) {
    if (cap.compareTo(base) <= 0) {
      return cap;
    }
    int doublings = Math.max(0, Math.min(attempt - 1, 30));
    long millis = base.toMillis() << doublings;
    return millis <= 0 || millis >= cap.toMillis() ? cap : Duration.ofMillis(millis);
  }
}
