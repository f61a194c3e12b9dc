package dev.capstan.sharding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class BalancerTest {
  private final Balancer balancer = new Balancer(1.05);
  private final SlotSpace space = SlotSpace.DEFAULT;

  @Test
  void aNewClusterSplitsTheRingIntoOneArcEach() {
    SlotLoads nothing = SlotLoads.builder(space).build();

    Assignment first = balancer.rebalance(Assignment.empty(space), List.of("a", "b", "c"), nothing);

    assertEquals(Set.of("a", "b", "c"), first.members());
    for (String member : List.of("a", "b", "c")) {
      assertEquals(1, first.rangesOf(member).size(), member + " " + first.rangesOf(member));
      int slots = first.rangesOf(member).get(0).size();
      assertTrue(Math.abs(slots - space.count() / 3) <= 2, member + " has " + slots + " slots");
    }
  }

  @Test
  void balancesWeightedLoadWithinTheTolerance() {
    SlotLoads loads = uidLoads(3000, 1);
    List<String> members = List.of("a", "b", "c");

    Assignment assignment = balancer.rebalance(Assignment.empty(space), members, loads);

    assertTrue(
        spread(assignment, members, loads) <= 1.06,
        "max/mean " + spread(assignment, members, loads));
  }

  @Test
  void aBalancedAssignmentStaysAsItIs() {
    SlotLoads loads = uidLoads(3000, 2);
    List<String> members = List.of("a", "b", "c");
    Assignment once = balancer.rebalance(Assignment.empty(space), members, loads);

    Assignment twice = balancer.rebalance(once, List.of("c", "a", "b"), loads);

    assertEquals(once, twice);
  }

  @Test
  void aDeadReplicasSlotsAloneMove() {
    SlotLoads loads = uidLoads(3000, 3);
    Assignment before = balancer.rebalance(Assignment.empty(space), List.of("a", "b", "c"), loads);

    Assignment after = balancer.rebalance(before, List.of("a", "b"), loads);

    for (int slot = 0; slot < space.count(); slot++) {
      if (!"c".equals(before.owner(slot))) {
        assertEquals(before.owner(slot), after.owner(slot), "slot " + slot);
      }
    }
    assertEquals(Set.of("a", "b"), after.members());
    assertTrue(spread(after, List.of("a", "b"), loads) <= 1.06);
  }

  @Test
  void aJoiningReplicaTakesAboutItsShareFromTheOthers() {
    SlotLoads loads = uidLoads(3000, 4);
    Assignment three = balancer.rebalance(Assignment.empty(space), List.of("a", "b", "c"), loads);

    Assignment four = balancer.rebalance(three, List.of("a", "b", "c", "d"), loads);

    double moved = four.loadMovedSince(three, loads) / loads.total();
    assertTrue(moved >= 0.20 && moved <= 0.30, "moved " + moved);
    assertTrue(spread(four, List.of("a", "b", "c", "d"), loads) <= 1.06);
  }

  @Test
  void noLiveReplicaOwnsNothing() {
    Assignment none = balancer.rebalance(Assignment.empty(space), List.of(), uidLoads(10, 5));

    assertEquals(Set.of(), none.members());
  }

  @Test
  void refusesAToleranceThatCannotBeMet() {
    assertThrows(IllegalArgumentException.class, () -> new Balancer(1.0));
  }

  private SlotLoads uidLoads(int kustomizations, long seed) {
    Random random = new Random(seed);
    SlotLoads.Builder loads = SlotLoads.builder(space);
    for (int i = 0; i < kustomizations; i++) {
      String uid = new UUID(random.nextLong(), random.nextLong()).toString();
      loads.add(ShardKey.UID.hash(uid), 4);
    }
    return loads.build();
  }

  static double spread(Assignment assignment, List<String> members, SlotLoads loads) {
    double max = members.stream().mapToDouble(m -> assignment.loadOf(m, loads)).max().orElse(0);
    return max / (loads.total() / members.size());
  }
}
