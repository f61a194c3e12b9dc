package dev.capstan.sharding;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The assignment being worked out: owners per slot, each live replica's load, and the weight of
 * each slot. A slot's weight is its load plus a small floor, so that empty slots (where new
 * Kustomizations will land) are spread too, in contiguous arcs, rather than piled on one replica.
 */
final class Placement {
  private static final double EMPTY_SLOT_SHARE = 0.05;

  private final SlotSpace space;
  private final String[] owners;
  private final double[] weights;
  private final Map<String, Double> memberLoads = new TreeMap<>();

  Placement(Assignment previous, Collection<String> live, SlotLoads loads) {
    this.space = previous.space();
    this.owners = previous.owners();
    this.weights = weights(loads);
    live.forEach(m -> memberLoads.put(m, 0.0));
    for (int slot = 0; slot < owners.length; slot++) {
      if (owners[slot] != null && !memberLoads.containsKey(owners[slot])) {
        owners[slot] = null;
      } else if (owners[slot] != null) {
        memberLoads.merge(owners[slot], weights[slot], Double::sum);
      }
    }
  }

  private static double[] weights(SlotLoads loads) {
    int count = loads.space().count();
    double floor = Math.max(loads.total(), count) / count * EMPTY_SLOT_SHARE;
    double[] weights = new double[count];
    for (int slot = 0; slot < count; slot++) {
      weights[slot] = loads.load(slot) + floor;
    }
    return weights;
  }

  int slots() {
    return owners.length;
  }

  String owner(int slot) {
    return owners[slot];
  }

  double weight(int slot) {
    return weights[slot];
  }

  double load(String member) {
    return memberLoads.get(member);
  }

  double mean() {
    double total = 0;
    for (double w : weights) {
      total += w;
    }
    return total / memberLoads.size();
  }

  /** The live replica carrying the most (by name, among equals). */
  String heaviest() {
    String heaviest = null;
    for (Map.Entry<String, Double> e : memberLoads.entrySet()) {
      if (heaviest == null || e.getValue() > memberLoads.get(heaviest)) {
        heaviest = e.getKey();
      }
    }
    return heaviest;
  }

  /** The live replica carrying the least (by name, among equals). */
  String lightest() {
    String lightest = null;
    for (Map.Entry<String, Double> e : memberLoads.entrySet()) {
      if (lightest == null || e.getValue() < memberLoads.get(lightest)) {
        lightest = e.getKey();
      }
    }
    return lightest;
  }

  /** The slots nobody live owns, in order. */
  List<Integer> orphans() {
    List<Integer> orphans = new ArrayList<>();
    for (int slot = 0; slot < owners.length; slot++) {
      if (owners[slot] == null) {
        orphans.add(slot);
      }
    }
    return orphans;
  }

  /** Whether a neighbouring slot (the ring wraps) belongs to {@code member}. */
  boolean borders(int slot, String member) {
    int before = (slot + owners.length - 1) % owners.length;
    int after = (slot + 1) % owners.length;
    return member.equals(owners[before]) || member.equals(owners[after]);
  }

  void give(int slot, String member) {
    if (owners[slot] != null) {
      memberLoads.merge(owners[slot], -weights[slot], Double::sum);
    }
    owners[slot] = member;
    memberLoads.merge(member, weights[slot], Double::sum);
  }

  Assignment toAssignment() {
    return new Assignment(space, owners);
  }
}
