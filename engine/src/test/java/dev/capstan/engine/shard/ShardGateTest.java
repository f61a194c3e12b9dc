package dev.capstan.engine.shard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.sharding.ShardKey;
import dev.capstan.sharding.SlotSpace;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class ShardGateTest {
  private final AtomicLong now = new AtomicLong(1_000);
  private final ShardOptions options =
      new ShardOptions(
          "a",
          null,
          null,
          ShardKey.UID,
          Duration.ofSeconds(10),
          Duration.ofSeconds(2),
          new SlotSpace(1));
  private final ShardGate gate = ShardGate.of(options, now::get);
  private final ConfigMap object =
      new ConfigMapBuilder().withNewMetadata().withName("x").withUid("abc").endMetadata().build();
  private final int slot = new SlotSpace(1).slotOf(ShardKey.UID.hash("abc"));
  private final ConfigMap cached =
      new ConfigMapBuilder()
          .withNewMetadata()
          .withName("x")
          .withNamespace("n")
          .endMetadata()
          .build();

  @Test
  void turnsEverythingAwayUntilTheFirstClaim() {
    assertFalse(gate.owns(object));
    assertTrue(gate.enter(object).isEmpty());
  }

  @Test
  void letsThroughWhatIsClaimedAndCountsItWhileItRuns() {
    gate.renewed(now.get(), slots(slot), Set.of());

    var pass = gate.enter(object);
    assertTrue(pass.isPresent());
    assertTrue(gate.busy(slot));
    pass.get().close();
    assertFalse(gate.busy(slot));
    assertFalse(gate.anyBusy());
  }

  @Test
  void aDrainingSlotStartsNothingNew() {
    gate.renewed(now.get(), slots(slot), Set.of(slot));

    assertFalse(gate.owns(object));
  }

  @Test
  void stopsLettingThroughOnceTheLeaseWasNotRenewedForTwoThirdsOfIt() {
    assertEquals(Duration.ofNanos(6_666_666_666L), options.writeDeadline());
    gate.renewed(now.get(), slots(slot), Set.of());
    now.addAndGet(options.writeDeadline().toNanos() - 1);
    assertTrue(gate.owns(object));

    now.addAndGet(1); // two thirds of the 10 s Lease
    assertFalse(gate.owns(object));
  }

  @Test
  void announcesNewSlotsAndAllOfThemAfterALapse() {
    List<BitSet> announced = new ArrayList<>();
    gate.onAcquired(
        gained -> {
          BitSet copy = new BitSet();
          for (int s = 0; s < 2; s++) {
            if (gained.test(s)) {
              copy.set(s);
            }
          }
          announced.add(copy);
        });

    gate.renewed(now.get(), slots(0), Set.of());
    gate.renewed(now.get(), slots(0, 1), Set.of());
    gate.renewed(now.get(), slots(0, 1), Set.of());
    now.addAndGet(Duration.ofSeconds(20).toNanos());
    gate.renewed(now.get(), slots(0, 1), Set.of());

    assertEquals(List.of(slots(0), slots(1), slots(0, 1)), announced);
  }

  @Test
  void aSlotThatStopsDrainingIsAnnouncedAgain() {
    List<Boolean> announced = new ArrayList<>();
    gate.onAcquired(gained -> announced.add(gained.test(slot)));

    gate.renewed(now.get(), slots(slot), Set.of(slot));
    gate.renewed(now.get(), slots(slot), Set.of());

    assertEquals(List.of(true), announced);
  }

  @Test
  void aClosedGateStaysClosed() {
    gate.renewed(now.get(), slots(slot), Set.of());
    gate.close();
    gate.renewed(now.get(), slots(slot), Set.of());

    assertFalse(gate.owns(object));
    assertTrue(gate.hold(object).isEmpty());
  }

  @Test
  void whatAnotherGroupOwnsIsTurnedAwayAndNotCounted() {
    gate.onOwning(o -> false);
    gate.renewed(now.get(), slots(slot), Set.of());

    assertTrue(gate.enter(object).isEmpty());
    assertFalse(gate.busy(slot));
  }

  @Test
  void aLabelThatCannotBeWrittenLeavesNothingCounted() {
    gate.onOwning(
        o -> {
          throw new IllegalStateException("no");
        });
    gate.renewed(now.get(), slots(slot), Set.of());

    assertThrows(IllegalStateException.class, () -> gate.enter(object));
    assertFalse(gate.busy(slot));
  }

  @Test
  void aReconcileCutOffMidWayMayNotWriteOnceTwoThirdsOfTheLeasePassed() {
    gate.renewed(now.get(), slots(slot), Set.of());
    var pass = gate.enter(object);
    assertTrue(pass.isPresent());
    now.addAndGet(Duration.ofSeconds(6).toNanos());
    gate.fence().check(object); // still in time

    now.addAndGet(Duration.ofSeconds(1).toNanos()); // 7 s after the last renewal
    WriteFence.Refused refused =
        assertThrows(WriteFence.Refused.class, () -> gate.fence().check(object));
    assertTrue(refused.getMessage().contains("no longer this replica's"), refused.getMessage());
    assertTrue(gate.busy(slot)); // the reconcile still runs, it only writes nothing more
    pass.get().close();
  }

  @Test
  void theWaitsOfAStageEndWhenTheFenceWouldRefuse() {
    Duration timeout = Duration.ofMinutes(5);
    assertEquals(Duration.ZERO, gate.fence().bound(object, timeout)); // never renewed

    gate.renewed(now.get(), slots(slot), Set.of());
    now.addAndGet(Duration.ofSeconds(3).toNanos());
    // the write deadline is two thirds of the 10 s Lease: 3.67 s left
    assertEquals(Duration.ofNanos(3_666_666_666L), gate.fence().bound(object, timeout));
    assertEquals(Duration.ofSeconds(1), gate.fence().bound(object, Duration.ofSeconds(1)));

    gate.renewed(now.get(), slots(slot), Set.of()); // a renewal gives the whole deadline again
    assertEquals(options.writeDeadline(), gate.fence().bound(object, timeout));

    now.addAndGet(Duration.ofSeconds(7).toNanos());
    assertEquals(Duration.ZERO, gate.fence().bound(object, timeout));
    assertEquals(timeout, ShardGate.everything().fence().bound(object, timeout));
  }

  @Test
  void aDrainingSlotLetsTheReconcileThatRunsInItWrite() {
    gate.renewed(now.get(), slots(slot), Set.of());
    var pass = gate.enter(object);
    gate.withhold(Set.of(slot));

    assertFalse(gate.owns(object));
    gate.fence().check(object);
    pass.get().close();
  }

  @Test
  void aSlotGivenUpIsFenced() {
    gate.renewed(now.get(), slots(slot), Set.of());
    gate.renewed(now.get(), new BitSet(), Set.of());

    assertThrows(WriteFence.Refused.class, () -> gate.fence().check(object));
  }

  @Test
  void aStoppingReplicaFinishesItsRunningWritesUntilTheLeaseLapses() {
    gate.renewed(now.get(), slots(slot), Set.of());
    var pass = gate.enter(object);
    gate.close();

    gate.fence().check(object);
    now.addAndGet(Duration.ofSeconds(7).toNanos());
    assertThrows(WriteFence.Refused.class, () -> gate.fence().check(object));
    pass.get().close();
  }

  @Test
  void withoutShardingEverythingPasses() {
    ShardGate everything = ShardGate.everything();
    everything.fence().check(object);

    assertTrue(everything.owns(object));
    assertTrue(everything.enter(object).isPresent());
  }

  @Test
  void oneEngineTurnsAwayWhatItsControllersCachesHaveNotFilledAndWakesItOnceChecked() {
    AtomicBoolean filled = new AtomicBoolean();
    ShardGate one = ShardGate.afterCachesFilled(o -> filled.get());
    List<String> woken = new ArrayList<>();
    one.wakeOnAcquired(() -> Stream.of(cached), k -> woken.add(k.name()));

    assertFalse(one.started(cached));
    assertTrue(one.enter(cached).isEmpty());
    assertTrue(one.hold(cached).isEmpty());
    assertFalse(one.owns(cached));
    assertThrows(WriteFence.Refused.class, () -> one.fence().check(cached));

    filled.set(true);
    assertTrue(one.started(cached));
    assertTrue(one.enter(cached).isPresent());
    assertEquals(List.of(), woken);
    one.startChecked();
    assertEquals(List.of("x"), woken);
    one.startChecked(); // nothing turned away since: nothing woken again
    assertEquals(List.of("x"), woken);
  }

  @Test
  void oneEngineWhoseCachesFilledWakesNothingAtTheCheck() {
    ShardGate one = ShardGate.afterCachesFilled(o -> true);
    List<String> woken = new ArrayList<>();
    one.wakeOnAcquired(() -> Stream.of(cached), k -> woken.add(k.name()));

    assertTrue(one.enter(cached).isPresent());
    one.startChecked();
    assertEquals(List.of(), woken, "a wave of reconciles again at every start would cost restarts");
  }

  @Test
  void aShardedGateIsOpenedByItsClaimsNotByTheCacheCheck() {
    List<Integer> announced = new ArrayList<>();
    gate.onAcquired(opened -> announced.add(opened.test(slot) ? 1 : 0));

    assertTrue(gate.started(object));
    gate.startChecked();
    assertTrue(gate.enter(object).isEmpty());
    assertEquals(List.of(), announced);
  }

  private static BitSet slots(int... slots) {
    BitSet bits = new BitSet();
    for (int s : slots) {
      bits.set(s);
    }
    return bits;
  }
}
