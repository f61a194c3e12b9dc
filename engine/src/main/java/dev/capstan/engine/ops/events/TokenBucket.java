package dev.capstan.engine.ops.events;

import java.time.Duration;
import java.time.Instant;

/** A token bucket: {@code burst} tokens, one more every {@code refill}. Not thread-safe. */
final class TokenBucket {
  private final int burst;
  private final Duration refill;
  private double tokens;
  private Instant last;

  TokenBucket(int burst, Duration refill, Instant now) {
    this.burst = burst;
    this.refill = refill;
    this.tokens = burst;
    this.last = now;
  }

  boolean tryTake(Instant now) {
    if (now.isAfter(last)) {
      double earned = (double) Duration.between(last, now).toNanos() / refill.toNanos();
      tokens = Math.min(burst, tokens + earned);
      last = now;
    }
    if (tokens >= 1) {
      tokens -= 1;
      return true;
    }
    return false;
  }
}
