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
 * slots, at the default options: a replica cut off after a renewal writes for half the Lease after
 * it sent that renewal; another judges it dead a whole Lease after it saw that renewal land, which
 * is later still.
 */
class FenceMarginTest {
  private static final long MS = 1_000_000L;

  private final ShardOptions defaults = ShardOptions.of("a");
  private final ConfigMap object =
      new ConfigMapBuilder().withNewMetadata().withName("x").withUid("u").endMetadata().build();

  @Test
  void theDefaultsGiveFiveSecondsOfMarginAndTwoRenewalsThatMayFail() {
    assertEquals(Duration.ofSeconds(10), defaults.leaseDuration());
    assertEquals(Duration.ofSeconds(2), defaults.renewPeriod());
    assertEquals(Duration.ofSeconds(5), defaults.writeDeadline());
    Duration margin = defaults.leaseDuration().minus(defaults.writeDeadline());
    assertEquals(Duration.ofSeconds(5), margin);
    // renewals at 2 s and 4 s after a good one may both fail before the write deadline closes
    assertEquals(2, defaults.writeDeadline().minusNanos(1).dividedBy(defaults.renewPeriod()));
  }

  @Test
  void aRenewPeriodLeavingFewerThanTwoTriesBeforeTheDeadlineIsRefused() {
    IllegalArgumentException refused =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                new ShardOptions(
                    "a", null, null, null, Duration.ofSeconds(10), Duration.ofSeconds(3), null));
    assertTrue(refused.getMessage().contains("quarter of the Lease"), refused.getMessage());
  }

  /**
   * The renewal is sent at 0 and lands after {@code latency}; the other replica sees it {@code lag}
   * later (its watch, or its next round's list). Then nothing more from the renewing replica.
   */
  @ParameterizedTest
  @CsvSource({"0,0", "0,2000", "1000,0", "4000,2000", "9000,0"})
  void noWriteGoesOutWithinFiveSecondsOfTheOthersTakingOver(long latencyMs, long lagMs) {
    AtomicLong now = new AtomicLong(0);
    ShardGate gate =
        new ShardGate(
            defaults.key(), new SlotSpace(1), now::get, defaults.writeDeadline().toNanos());
    Liveness other = new Liveness(now::get);
    BitSet all = new BitSet();
    all.set(0);
    gate.renewed(0, all, Set.of()); // the time taken before the renewal was sent
    now.set((latencyMs + lagMs) * MS);
    other.observe("a", "2", defaults.leaseDuration().toSeconds());

    Optional<Long> lastWrite = Optional.empty();
    Optional<Long> takenOver = Optional.empty();
    for (long t = now.get(); t <= 30_000 * MS; t += MS) {
      now.set(t);
      if (gate.mayWrite(object)) {
        lastWrite = Optional.of(t);
      }
      if (takenOver.isEmpty() && !other.live().contains("a")) {
        takenOver = Optional.of(t);
      }
    }
    assertTrue(takenOver.isPresent());
    long margin = takenOver.get() - lastWrite.orElse(0L);
    assertTrue(margin >= 5_000 * MS, "margin " + margin / MS + " ms");
    assertFalse(gate.mayWrite(object));
  }
}
