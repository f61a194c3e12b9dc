package dev.capstan.sharding;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/** Which replica owns each slot (none, before anyone was given it). Immutable. */
public final class Assignment {
  private final SlotSpace space;
  private final String[] owners;

  Assignment(SlotSpace space, String[] owners) {
    this.space = space;
    this.owners = owners.clone();
  }

  /** No slot owned by anyone: where a cluster starts. */
  public static Assignment empty(SlotSpace space) {
    return new Assignment(space, new String[space.count()]);
  }

  /**
   * Each replica's slots as the ranges it reported (the union of what replicas claim). Claims
   * overlap only by a fault; a slot claimed twice is the earlier name's, as {@link Handoff} settles
   * it, whatever order the claims come in.
   */
  public static Assignment of(SlotSpace space, Map<String, List<SlotRange>> claims) {
    String[] owners = new String[space.count()];
    new TreeMap<>(claims)
        .descendingMap()
        .forEach(
            (member, ranges) -> ranges.forEach(r -> Arrays.fill(owners, r.from(), r.to(), member)));
    return new Assignment(space, owners);
  }

  public SlotSpace space() {
    return space;
  }

  /** The owner of a slot, or null. */
  public String owner(int slot) {
    return owners[slot];
  }

  /** Every replica that owns a slot, by name. */
  public Set<String> members() {
    Set<String> members = new TreeSet<>();
    for (String owner : owners) {
      if (owner != null) {
        members.add(owner);
      }
    }
    return members;
  }

  /** A replica's slots as contiguous ranges, in order. */
  public List<SlotRange> rangesOf(String member) {
    return SlotRange.runs(owners.length, slot -> member.equals(owners[slot]));
  }

  /** The selector a replica lists and watches its share with. */
  public ShardSelector selectorOf(String member, ShardKey key) {
    return new ShardSelector(key, space, rangesOf(member));
  }

  /** The load a replica carries under this assignment. */
  public double loadOf(String member, SlotLoads loads) {
    double load = 0;
    for (int slot = 0; slot < owners.length; slot++) {
      if (member.equals(owners[slot])) {
        load += loads.load(slot);
      }
    }
    return load;
  }

  /** The load of the slots that have another owner here than in {@code before}. */
  public double loadMovedSince(Assignment before, SlotLoads loads) {
    double moved = 0;
    for (int slot = 0; slot < owners.length; slot++) {
      if (before.owners[slot] != null && !Objects.equals(before.owners[slot], owners[slot])) {
        moved += loads.load(slot);
      }
    }
    return moved;
  }

  String[] owners() {
    return owners.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Assignment a && space.equals(a.space) && Arrays.equals(owners, a.owners);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(owners);
  }
}
