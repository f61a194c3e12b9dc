package dev.capstan.engine.ops.leader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class LeaseWatchdogTest {
  private static final Instant START = Instant.parse("2026-12-01T10:00:00Z");
  private final MutableClock clock = new MutableClock(START);
  private final LeaseWatchdog watchdog = new LeaseWatchdog("me", Duration.ofSeconds(8), clock);

  @Test
  void aLeaderStopsOnceItsLastRenewalSeenIsOlderThanTheRenewDeadline() {
    watchdog.startedLeading();
    clock.advance(Duration.ofSeconds(5));
    watchdog.observed(Optional.of("me"), Optional.of(at(START.plusSeconds(5))));
    clock.advance(Duration.ofSeconds(7));
    assertFalse(watchdog.expired(true), "renewed 7 s ago");
    clock.advance(Duration.ofMillis(1001));
    assertTrue(watchdog.expired(true), "renewed 8.001 s ago");
    assertEquals(Duration.ofMillis(8001), watchdog.sinceConfirmed());
  }

  @Test
  void withNoReadAtAllTheDeadlineRunsFromTheAcquisition() {
    watchdog.startedLeading();
    clock.advance(Duration.ofSeconds(8));
    assertFalse(watchdog.expired(true));
    clock.advance(Duration.ofMillis(1));
    assertTrue(watchdog.expired(true));
  }

  @Test
  void aLeaseHeldByAnotherOrWithoutRenewalTimeConfirmsNothing() {
    watchdog.startedLeading();
    clock.advance(Duration.ofSeconds(6));
    watchdog.observed(Optional.of("other"), Optional.of(at(clock.instant())));
    watchdog.observed(Optional.empty(), Optional.of(at(clock.instant())));
    watchdog.observed(Optional.of("me"), Optional.empty());
    clock.advance(Duration.ofSeconds(3));
    assertTrue(watchdog.expired(true));
  }

  @Test
  void anOlderReadDoesNotSetTheRenewalBack() {
    watchdog.startedLeading();
    clock.advance(Duration.ofSeconds(6));
    watchdog.observed(Optional.of("me"), Optional.of(at(START.plusSeconds(6))));
    watchdog.observed(Optional.of("me"), Optional.of(at(START.plusSeconds(1))));
    clock.advance(Duration.ofSeconds(7));
    assertFalse(watchdog.expired(true), "the newer renewal, 7 s ago, counts");
  }

  @Test
  void aStandbyNeverExpires() {
    clock.advance(Duration.ofMinutes(5));
    assertFalse(watchdog.expired(false));
  }

  private static ZonedDateTime at(Instant instant) {
    return instant.atZone(ZoneOffset.UTC);
  }
}
