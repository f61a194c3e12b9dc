package dev.capstan.engine.ops.events;

import java.time.Duration;
import java.time.Instant;

/** A token bucket, full at first. Not thread-safe. */
final class TokenBucket {
  /** {@code burst} tokens at most, one more every {@code refill}. */
  record Rate(int burst, Duration refill) {}

  private final Rate rate;
  private double tokens;
  private Instant last;

  TokenBucket(Rate rate, Instant now) {
    this.rate = rate;
    this.tokens = rate.burst();
    this.last = now;
  }

  boolean tryTake(Instant now) {
    if (now.isAfter(last)) {
      double earned = (double) Duration.between(last, now).toNanos() / rate.refill().toNanos();
      tokens = Math.min(rate.burst(), tokens + earned);
      last = now;
    }
    if (tokens >= 1) {
      tokens -= 1;
      return true;
    }
    return false;
  }
}
