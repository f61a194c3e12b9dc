package dev.capstan.source.git.transport;

import java.time.Duration;

/**
 * How transient network errors are retried: up to {@code maxAttempts} attempts in all, waiting
 * {@code initialBackoff}, then that times {@code multiplier}, and so on, between them. No retry
 * starts after the fetch's timeout has passed.
 */
public record RetryPolicy(int maxAttempts, Duration initialBackoff, double multiplier) {

  public RetryPolicy {
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("maxAttempts must be at least 1");
    }
    if (initialBackoff.isNegative() || initialBackoff.isZero()) {
      throw new IllegalArgumentException("initialBackoff must be positive");
    }
    if (multiplier < 1.0) {
      throw new IllegalArgumentException("multiplier must be at least 1");
    }
  }

  /** Three attempts, 1 s then 2 s apart. */
  public static RetryPolicy defaults() {
    return new RetryPolicy(3, Duration.ofSeconds(1), 2.0);
  }

  /** A single attempt. */
  public static RetryPolicy none() {
    return new RetryPolicy(1, Duration.ofMillis(1), 1.0);
  }
}
