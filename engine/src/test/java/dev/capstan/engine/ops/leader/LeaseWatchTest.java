package dev.capstan.engine.ops.leader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.testing.MutableClock;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class LeaseWatchTest {
  private final MutableClock clock = new MutableClock(Instant.parse("2026-12-01T10:00:00Z"));
  private final LeaseWatchdog watchdog = new LeaseWatchdog("me", Duration.ofSeconds(8), clock);
  private final AtomicBoolean leading = new AtomicBoolean();
  private final AtomicInteger halts = new AtomicInteger();
  private final LeaseWatch watch =
      new LeaseWatch(watchdog, "capstan-leader", leading::get, halts::incrementAndGet);

  @Test
  void aLeaderIsHaltedOnceNoReadShowedItsRenewalWithinTheDeadline() {
    lead();
    clock.advance(Duration.ofSeconds(5));
    watch.observe(lease("me", clock.instant()));
    clock.advance(Duration.ofSeconds(8));
    watch.check();
    assertEquals(0, halts.get(), "renewed 8 s ago");
    clock.advance(Duration.ofMillis(250));
    watch.check();
    assertEquals(1, halts.get(), "renewed 8.25 s ago");
  }

  @Test
  void readsOfNoLeaseOrOfALeaseWithoutSpecOrOfAnothersConfirmNothing() {
    lead();
    clock.advance(Duration.ofSeconds(5));
    watch.observe(null);
    watch.observe(
        new LeaseBuilder().withNewMetadata().withName("capstan-leader").endMetadata().build());
    watch.observe(lease("other", clock.instant()));
    clock.advance(Duration.ofSeconds(4));
    watch.check();
    assertEquals(1, halts.get());
  }

  @Test
  void aStandbyIsNeverHalted() {
    clock.advance(Duration.ofMinutes(1));
    watch.check();
    assertEquals(0, halts.get());
  }

  @Test
  void aCheckThatFailsHaltsRatherThanLeaveTheLeaderUnguarded() {
    LeaseWatch broken =
        new LeaseWatch(
            watchdog,
            "capstan-leader",
            () -> {
              throw new IllegalStateException("cannot tell");
            },
            halts::incrementAndGet);
    broken.check();
    assertEquals(1, halts.get());
  }

  @Test
  void theOldLeaderStopsWellBeforeAStandbyMayLead() {
    Duration margin =
        LeaderElection.LEASE_DURATION.minus(LeaderElection.RENEW_DEADLINE).minus(LeaseWatch.TICK);
    assertTrue(
        margin.compareTo(Duration.ofSeconds(2)) >= 0,
        "lease duration - renew deadline - one tick: " + margin);
  }

  private void lead() {
    watchdog.startedLeading();
    leading.set(true);
  }

  private static Lease lease(String holder, Instant renewed) {
    return new LeaseBuilder()
        .withNewMetadata()
        .withName("capstan-leader")
        .endMetadata()
        .withNewSpec()
        .withHolderIdentity(holder)
        .withRenewTime(renewed.atZone(ZoneOffset.UTC))
        .endSpec()
        .build();
  }
}
