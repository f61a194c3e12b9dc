package dev.capstan.engine.shard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.sharding.Liveness;
import dev.capstan.sharding.SlotSpace;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import java.time.Duration;
import java.util.BitSet;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The margin between a replica's last write and the first moment another replica may take its
 * slots, at the default options: a replica cut off after a renewal writes for two thirds of the
 * Lease after it sent that renewal; another judges it dead a whole Lease after it saw that renewal
 * land, which is at least a third of the Lease later.
 */
class FenceMarginTest {
  private static final long MS = 1_000_000L;

  private final ShardOptions defaults = ShardOptions.of("a");
  private final ConfigMap object =
      new ConfigMapBuilder().withNewMetadata().withName("x").withUid("u").endMetadata().build();

  @Test
  void theDefaultsGiveAThirdOfTheLeaseOfMarginAndRenewalsThatMayFail() {
    assertEquals(Duration.ofSeconds(10), defaults.leaseDuration());
    assertEquals(Duration.ofSeconds(2), defaults.renewPeriod());
    assertEquals(Duration.ofNanos(6_666_666_666L), defaults.writeDeadline());
    Duration margin = defaults.leaseDuration().minus(defaults.writeDeadline());
    assertEquals(Duration.ofNanos(3_333_333_334L), margin);
    // rounds start 2 s after the previous one ended: with instant rounds those at 2, 4 and 6 s
    // after a good one may all fail before the write deadline; each second a round takes moves
    // the later ones out (docs/sharding.md, "The margin")
    assertEquals(3, defaults.writeDeadline().minusNanos(1).dividedBy(defaults.renewPeriod()));
  }

  @Test
  void aRenewPeriodLongerThanAThirdOfTheLeaseIsRefused() {
    new ShardOptions("a", null, null, null, Duration.ofSeconds(9), Duration.ofSeconds(3), null);
    IllegalArgumentException refused =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                new ShardOptions(
                    "a", null, null, null, Duration.ofSeconds(10), Duration.ofSeconds(4), null));
    assertTrue(refused.getMessage().contains("third of the Lease"), refused.getMessage());
  }

  /**
   * The renewal is sent at 0 (the gate is stamped with that moment) and lands after {@code
   * latency}; the other replica sees it {@code lag} later (its watch, or its next round's list).
   * Then nothing more from the renewing replica. The gate is sampled from 0 on, so every case sees
   * it open before it closes.
   */
  @ParameterizedTest
  @CsvSource({"0,0", "0,2000", "1000,0", "4000,2000", "6000,600", "9000,0"})
  void noWriteGoesOutWithinAThirdOfTheLeaseOfTheOthersTakingOver(long latencyMs, long lagMs) {
    AtomicLong now = new AtomicLong(0);
    SlotSpace space = new SlotSpace(1);
    ShardGate gate =
        new ShardGate(defaults.key(), space, now::get, defaults.writeDeadline().toNanos());
    Liveness other = new Liveness(now::get);
    BitSet all = new BitSet();
    all.set(0, space.count()); // the whole space, whichever slot the object falls in
    gate.renewed(0, all, Set.of()); // stamped with the moment the renewal was sent
    long seenAt = (latencyMs + lagMs) * MS;

    Optional<Long> lastWrite = Optional.empty();
    Optional<Long> takenOver = Optional.empty();
    for (long t = 0; t <= 30_000 * MS; t += MS) {
      now.set(t);
      if (t == seenAt) {
        other.observe("a", "2", defaults.leaseDuration().toSeconds());
      }
      if (gate.mayWrite(object)) {
        lastWrite = Optional.of(t);
      }
      if (t >= seenAt && takenOver.isEmpty() && !other.live().contains("a")) {
        takenOver = Optional.of(t);
      }
    }
    assertTrue(lastWrite.isPresent(), "the gate never opened");
    assertTrue(takenOver.isPresent(), "the other never took over");
    long margin = takenOver.get() - lastWrite.get();
    long least = defaults.leaseDuration().minus(defaults.writeDeadline()).toNanos();
    assertTrue(margin >= least, "margin " + margin / MS + " ms");
    assertFalse(gate.mayWrite(object));
  }
}
