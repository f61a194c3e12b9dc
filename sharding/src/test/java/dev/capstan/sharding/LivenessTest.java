package dev.capstan.sharding;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class LivenessTest {
  private final AtomicLong now = new AtomicLong();
  private final Liveness liveness = new Liveness(now::get);

  @Test
  void aLeaseLivesForItsDurationAfterItWasLastSeenToChange() {
    liveness.observe("a", "1", 15);
    now.addAndGet(seconds(10));
    liveness.observe("a", "1", 15); // the same version: no renewal
    now.addAndGet(seconds(4));
    assertEquals(Set.of("a"), liveness.live());

    now.addAndGet(seconds(2));
    assertEquals(Set.of(), liveness.live());

    liveness.observe("a", "2", 15); // renewed
    assertEquals(Set.of("a"), liveness.live());
  }

  @Test
  void theRenewTimeWrittenInTheLeaseIsNeverTrusted() {
    // a replica whose clock runs an hour ahead writes renew times in the future; only the version
    // changing is evidence of life, so it dies as any other when it stops renewing
    liveness.observe("skewed", "renewed-at-2030", 10);
    now.addAndGet(seconds(11));
    assertEquals(Set.of(), liveness.live());
  }

  @Test
  void aDeletedLeaseIsNotLive() {
    liveness.observe("a", "1", 15);
    liveness.forget("a");
    assertEquals(Set.of(), liveness.live());
  }

  @Test
  void theNextExpiryIsTheEarliestOfTheOthersLiveLeases() {
    liveness.observe("self", "1", 10);
    liveness.observe("a", "1", 10);
    now.addAndGet(seconds(3));
    liveness.observe("b", "1", 10);
    // "a" was last seen to change 3 s ago: it expires 7 s from now, before "b"; "self" is no other
    assertEquals(OptionalLong.of(seconds(10)), liveness.nextExpiry("self"));

    now.addAndGet(seconds(7));
    assertEquals(Set.of("b"), liveness.live()); // "self" was not renewed either
    assertEquals(OptionalLong.of(seconds(13)), liveness.nextExpiry("self"));

    now.addAndGet(seconds(3));
    assertEquals(OptionalLong.empty(), liveness.nextExpiry("self"));
  }

  @Test
  void atTheDefaultLeaseAKilledReplicaIsDeadTenSecondsAfterItsLastRenewalWasSeen() {
    // renewed every 2 s: seen at 0, 2, 4; killed at 5; judged dead from 14 on, never before
    for (int renewal = 0; renewal < 3; renewal++) {
      liveness.observe("killed", String.valueOf(renewal), 10);
      now.addAndGet(seconds(2));
    }
    now.addAndGet(seconds(10) - seconds(2) - 1);
    assertEquals(Set.of("killed"), liveness.live());
    now.addAndGet(1);
    assertEquals(Set.of(), liveness.live());
  }

  private static long seconds(long s) {
    return s * 1_000_000_000L;
  }
}
