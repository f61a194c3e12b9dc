package dev.capstan.sharding;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class HandoffTest {
  private final SlotSpace space = new SlotSpace(3); // 8 slots

  @Test
  void aSlotGivenAwayIsReleasedAtOnceWhenNothingRunsInIt() {
    Map<String, List<SlotRange>> claims = Map.of("a", List.of(new SlotRange(0, 8)), "b", List.of());
    Assignment target =
        Assignment.of(
            space, Map.of("a", List.of(new SlotRange(0, 4)), "b", List.of(new SlotRange(4, 8))));

    Handoff.Plan a = Handoff.plan("a", claims, target, slot -> false);

    assertEquals(List.of(new SlotRange(0, 4)), a.claim());
    assertEquals(Set.of(), a.draining());
  }

  @Test
  void aBusySlotDrainsBeforeItIsReleased() {
    Map<String, List<SlotRange>> claims = Map.of("a", List.of(new SlotRange(0, 8)));
    Assignment target =
        Assignment.of(
            space, Map.of("a", List.of(new SlotRange(0, 4)), "b", List.of(new SlotRange(4, 8))));

    Handoff.Plan a = Handoff.plan("a", claims, target, slot -> slot == 5);

    assertEquals(List.of(new SlotRange(0, 4), new SlotRange(5, 6)), a.claim());
    assertEquals(Set.of(5), a.draining());
  }

  @Test
  void aSlotIsTakenOnlyOnceNoOtherLiveReplicaClaimsIt() {
    Assignment target =
        Assignment.of(
            space, Map.of("a", List.of(new SlotRange(0, 4)), "b", List.of(new SlotRange(4, 8))));
    Map<String, List<SlotRange>> stillA = Map.of("a", List.of(new SlotRange(0, 6)), "b", List.of());
    Map<String, List<SlotRange>> released =
        Map.of("a", List.of(new SlotRange(0, 4)), "b", List.of());

    Handoff.Plan early = Handoff.plan("b", stillA, target, slot -> false);
    Handoff.Plan later = Handoff.plan("b", released, target, slot -> false);

    assertEquals(List.of(new SlotRange(6, 8)), early.claim());
    assertEquals(Set.of(4, 5), early.waiting());
    assertEquals(List.of(new SlotRange(4, 8)), later.claim());
    assertEquals(Set.of(), later.waiting());
  }

  @Test
  void anExpiredReplicasSlotsAreFreeBecauseOnlyLiveClaimsCount() {
    // "a" is not live: its Lease expired, so its claims are not passed in
    Map<String, List<SlotRange>> live = Map.of("b", List.of(new SlotRange(4, 8)));
    Assignment target = Assignment.of(space, Map.of("b", List.of(new SlotRange(0, 8))));

    Handoff.Plan b = Handoff.plan("b", live, target, slot -> false);

    assertEquals(List.of(new SlotRange(0, 8)), b.claim());
  }

  @Test
  void overlappingClaimsAreSettledForTheEarlierName() {
    Map<String, List<SlotRange>> overlap =
        Map.of("a", List.of(new SlotRange(0, 4)), "b", List.of(new SlotRange(2, 8)));
    Assignment target =
        Assignment.of(
            space, Map.of("a", List.of(new SlotRange(0, 4)), "b", List.of(new SlotRange(4, 8))));

    Handoff.Plan a = Handoff.plan("a", overlap, target, slot -> false);
    Handoff.Plan b = Handoff.plan("b", overlap, target, slot -> slot == 3);

    assertEquals(List.of(new SlotRange(0, 4)), a.claim());
    assertEquals(List.of(new SlotRange(3, 8)), b.claim());
    assertEquals(Set.of(3), b.draining());
  }

  @Test
  void aSlotClaimedTwiceIsTheEarlierNamesWhateverTheOrder() {
    Map<String, List<SlotRange>> claims = new LinkedHashMap<>();
    claims.put("b", List.of(new SlotRange(0, 8)));
    claims.put("a", List.of(new SlotRange(2, 4)));

    Assignment assignment = Assignment.of(space, claims);

    assertEquals("a", assignment.owner(3));
    assertEquals("b", assignment.owner(5));
  }
}
