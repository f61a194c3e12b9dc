package dev.capstan.applier.common;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.function.BooleanSupplier;

/** Waits for a condition by polling; clock and sleep are injectable so tests need not wait. */
public record Polling(Clock clock, Duration interval, Sleeper sleeper) {

  /** Sleeps for a duration; {@link Thread#sleep} in production. */
  @FunctionalInterface
  public interface Sleeper {
    void sleep(Duration duration) throws InterruptedException;
  }

  public static Polling system() {
    return new Polling(Clock.systemUTC(), Duration.ofMillis(200), d -> Thread.sleep(d.toMillis()));
  }

  /** True once {@code condition} holds; false when {@code timeout} passes first. */
  public boolean until(BooleanSupplier condition, Duration timeout) {
    Instant deadline = clock.instant().plus(timeout);
    while (true) {
      if (condition.getAsBoolean()) {
        return true;
      }
      if (!clock.instant().isBefore(deadline)) {
        return false;
      }
      try {
        sleeper.sleep(interval);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
  }
}
