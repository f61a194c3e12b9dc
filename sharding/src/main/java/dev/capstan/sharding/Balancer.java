package dev.capstan.sharding;

import java.util.Collection;
import java.util.List;

/**
 * Works out the next assignment from the last one, the live replicas and the load of each slot,
 * moving as little as it can: a slot keeps its owner while that owner lives, a dead replica's slots
 * go to the lightest replicas in contiguous runs, and slots then move from the heaviest to the
 * lightest replica only while one of them is further than the tolerance from the mean. The result
 * depends only on the inputs (never on the order replicas are named in), so every replica that sees
 * the same Leases works out the same assignment.
 */
public final class Balancer {
  private final double tolerance;

  /**
   * @param tolerance how far (as a factor) a replica's load may stray from the mean, e.g. 1.05
   */
  public Balancer(double tolerance) {
    if (tolerance <= 1) {
      throw new IllegalArgumentException("tolerance must be above 1, not " + tolerance);
    }
    this.tolerance = tolerance;
  }

  /** The next assignment; empty when no replica is live. */
  public Assignment rebalance(Assignment previous, Collection<String> live, SlotLoads loads) {
    if (live.isEmpty()) {
      return Assignment.empty(previous.space());
    }
    Placement placement = new Placement(previous, live, loads);
    placeOrphans(placement);
    levelOut(placement);
    return placement.toAssignment();
  }

  /**
   * Hands out slots nobody owns, in slot order, to one replica at a time until it reaches the mean,
   * so that each receives a contiguous run (a short shard selector).
   */
  private void placeOrphans(Placement placement) {
    List<Integer> orphans = placement.orphans();
    double mean = placement.mean();
    String receiver = null;
    for (int slot : orphans) {
      String lightest = placement.lightest();
      boolean full =
          receiver != null && placement.load(receiver) + placement.weight(slot) / 2 > mean;
      // a full receiver keeps going when nobody is lighter: the last slots of a run stay with it
      if (receiver == null || (full && placement.load(lightest) < placement.load(receiver))) {
        receiver = lightest;
      }
      placement.give(slot, receiver);
    }
  }

  /** Moves slots from the heaviest to the lightest replica while either is out of tolerance. */
  private void levelOut(Placement placement) {
    double mean = placement.mean();
    for (int step = 0; step < placement.slots() * 4; step++) {
      String donor = placement.heaviest();
      String receiver = placement.lightest();
      boolean balanced =
          placement.load(donor) <= mean * tolerance && placement.load(receiver) >= mean / tolerance;
      int slot = balanced ? -1 : slotToMove(placement, donor, receiver);
      if (slot < 0) {
        return;
      }
      placement.give(slot, receiver);
    }
  }

  /**
   * The donor's slot that best halves the gap between the two without reversing it, one that
   * borders the receiver's slots first (so both keep few ranges); -1 when none narrows it.
   */
  private static int slotToMove(Placement placement, String donor, String receiver) {
    double gap = placement.load(donor) - placement.load(receiver);
    int best = -1;
    double bestScore = Double.MAX_VALUE;
    for (int slot = 0; slot < placement.slots(); slot++) {
      if (!donor.equals(placement.owner(slot)) || placement.weight(slot) >= gap) {
        continue;
      }
      double score = Math.abs(gap / 2 - placement.weight(slot));
      if (!placement.borders(slot, receiver)) {
        score += gap;
      }
      if (score < bestScore) {
        best = slot;
        bestScore = score;
      }
    }
    return best;
  }
}
