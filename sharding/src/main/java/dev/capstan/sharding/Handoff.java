package dev.capstan.sharding;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.IntPredicate;

/**
 * One replica's next claim, so that no slot ever has two owners: it releases a slot the target
 * gives another only once no reconcile of that slot is running here (until then the slot is
 * draining: kept, but no new reconcile starts), and takes a slot the target gives it only once no
 * live replica claims it any more (released, or its Lease expired).
 */
public final class Handoff {
  /**
   * @param claim the slots this replica claims from now on (written to its Lease)
   * @param draining slots still claimed but given to another: finish, start nothing new
   * @param waiting slots given to this replica that another live replica still claims
   */
  public record Plan(List<SlotRange> claim, Set<Integer> draining, Set<Integer> waiting) {
    public Plan {
      claim = List.copyOf(claim);
      draining = Set.copyOf(draining);
      waiting = Set.copyOf(waiting);
    }
  }

  private Handoff() {}

  /**
   * @param me this replica
   * @param liveClaims what each live replica (this one included) claims, read from the Leases
   * @param target the assignment the balancer worked out from those claims
   * @param busy whether a reconcile of a slot is running here
   */
  public static Plan plan(
      String me, Map<String, List<SlotRange>> liveClaims, Assignment target, IntPredicate busy) {
    SlotSpace space = target.space();
    Set<Integer> draining = new TreeSet<>();
    Set<Integer> waiting = new TreeSet<>();
    boolean[] mine = new boolean[space.count()];
    for (SlotRange r : liveClaims.getOrDefault(me, List.of())) {
      for (int slot = r.from(); slot < r.to(); slot++) {
        mine[slot] = true;
      }
    }
    for (int slot = 0; slot < space.count(); slot++) {
      // claims overlap only by a fault (a hand-edited Lease): the first name keeps the slot
      boolean wanted =
          me.equals(target.owner(slot))
              && !(mine[slot] && claimedByAnEarlierName(me, slot, liveClaims));
      if (mine[slot] && !wanted) {
        mine[slot] = busy.test(slot);
        if (mine[slot]) {
          draining.add(slot);
        }
      } else if (!mine[slot] && wanted) {
        boolean free = claimedByNobodyElse(me, slot, liveClaims);
        mine[slot] = free;
        if (!free) {
          waiting.add(slot);
        }
      }
    }
    return new Plan(SlotRange.runs(mine.length, slot -> mine[slot]), draining, waiting);
  }

  private static boolean claimedByAnEarlierName(
      String me, int slot, Map<String, List<SlotRange>> liveClaims) {
    return liveClaims.entrySet().stream()
        .filter(e -> e.getKey().compareTo(me) < 0)
        .anyMatch(e -> e.getValue().stream().anyMatch(r -> r.contains(slot)));
  }

  private static boolean claimedByNobodyElse(
      String me, int slot, Map<String, List<SlotRange>> liveClaims) {
    return liveClaims.entrySet().stream()
        .filter(e -> !e.getKey().equals(me))
        .noneMatch(e -> e.getValue().stream().anyMatch(r -> r.contains(slot)));
  }
}
