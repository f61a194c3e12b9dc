package dev.capstan.applier.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class PollingTest {

  /** A clock that only moves when the poller sleeps. */
  private static Polling fake(AtomicReference<Instant> now) {
    Clock clock =
        new Clock() {
          @Override
          public ZoneOffset getZone() {
            return ZoneOffset.UTC;
          }

          @Override
          public Clock withZone(ZoneId zone) {
            return this;
          }

          @Override
          public Instant instant() {
            return now.get();
          }
        };
    return new Polling(clock, Duration.ofSeconds(1), d -> now.set(now.get().plus(d)));
  }

  @Test
  void returnsTrueOnceConditionHolds() {
    AtomicInteger calls = new AtomicInteger();
    assertTrue(
        fake(new AtomicReference<>(Instant.EPOCH))
            .until(() -> calls.incrementAndGet() == 3, Duration.ofSeconds(10)));
    assertEquals(3, calls.get());
  }

  @Test
  void givesUpAtTheTimeout() {
    AtomicReference<Instant> now = new AtomicReference<>(Instant.EPOCH);
    assertFalse(fake(now).until(() -> false, Duration.ofSeconds(5)));
    assertEquals(Instant.EPOCH.plusSeconds(5), now.get());
  }
}
