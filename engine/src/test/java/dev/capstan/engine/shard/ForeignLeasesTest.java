package dev.capstan.engine.shard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The other group's Lease is judged by what this process sees change, on its own clock: the renew
 * time written in it (here a year off either way) decides nothing.
 */
class ForeignLeasesTest {
  private final AtomicLong now = new AtomicLong(1_000);
  private final AtomicReference<Lease> stored = new AtomicReference<>();
  private final AtomicInteger reads = new AtomicInteger();
  private final ForeignLeases leases =
      new ForeignLeases(
          (namespace, name) -> {
            reads.incrementAndGet();
            return stored.get();
          },
          now::get);

  @Test
  void aLeaseRenewedWithAClockAYearBehindIsLive() {
    stored.set(lease("1", ZonedDateTime.now().minusYears(1)));

    assertTrue(leases.live("ns", "capstan-replica-a"));
    for (int i = 1; i <= 6; i++) {
      advance(Duration.ofSeconds(5)); // renewed every 5 s, its renew time a year old
      stored.set(lease(String.valueOf(i), ZonedDateTime.now().minusYears(1)));
      assertTrue(leases.live("ns", "capstan-replica-a"), "after " + 5 * i + " s");
    }
  }

  @Test
  void aLeaseWhoseClockRunsAheadIsGoneOnceItStopsChanging() {
    stored.set(lease("1", ZonedDateTime.now().plusYears(1)));
    assertTrue(leases.live("ns", "capstan-replica-a"));

    advance(Duration.ofSeconds(14));
    assertTrue(leases.live("ns", "capstan-replica-a"), "gone before its duration");
    advance(Duration.ofSeconds(1));
    assertFalse(leases.live("ns", "capstan-replica-a"), "a renew time ahead kept it live");
  }

  @Test
  void aLiveLeaseIsReadAgainOnlyAfterAThirdOfItsDuration() {
    stored.set(lease("1", ZonedDateTime.now()));
    assertTrue(leases.live("ns", "capstan-replica-a"));
    for (int i = 0; i < 100; i++) {
      assertTrue(leases.live("ns", "capstan-replica-a"));
    }
    assertEquals(1, reads.get());

    advance(Duration.ofSeconds(5));
    stored.set(null); // deleted
    assertFalse(leases.live("ns", "capstan-replica-a"));
    assertEquals(2, reads.get());
  }

  @Test
  void aLeaseNamingNoDurationLastsWhatAReplicasLeaseLastsByDefault() {
    Lease lease = lease("1", ZonedDateTime.now());
    lease.getSpec().setLeaseDurationSeconds(null);
    stored.set(lease);
    assertTrue(leases.live("ns", "capstan-replica-a"));

    advance(ShardOptions.DEFAULT_LEASE_DURATION.minusNanos(1));
    assertTrue(leases.live("ns", "capstan-replica-a"), "gone before the default duration");
    advance(Duration.ofNanos(1));
    assertFalse(leases.live("ns", "capstan-replica-a"), "live past the default duration");
  }

  private void advance(Duration by) {
    now.addAndGet(by.toNanos());
  }

  private static Lease lease(String version, ZonedDateTime renewed) {
    return new LeaseBuilder()
        .withNewMetadata()
        .withName("capstan-replica-a")
        .withNamespace("ns")
        .withResourceVersion(version)
        .endMetadata()
        .withNewSpec()
        .withHolderIdentity("a")
        .withLeaseDurationSeconds(15)
        .withRenewTime(renewed)
        .endSpec()
        .build();
  }
}
