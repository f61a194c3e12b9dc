package dev.capstan.sharding;

import static org.junit.jupiter.api.Assertions.assertEquals;

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

  private static long seconds(long s) {
    return s * 1_000_000_000L;
  }
}
