package dev.capstan.sharding;

import java.util.Arrays;

/**
 * The work in each slot: every Kustomization counts one, plus a quarter for each object of its
 * inventory, since applying, pruning and watching the health of its objects is most of what a large
 * one costs. Immutable; {@link #builder} adds Kustomizations one at a time.
 */
public final class SlotLoads {
  private final SlotSpace space;
  private final double[] loads;
  private final double total;

  private SlotLoads(SlotSpace space, double[] loads) {
    this.space = space;
    this.loads = loads;
    this.total = Arrays.stream(loads).sum();
  }

  /** A Kustomization's weight from the size of its inventory. */
  public static double weight(int inventoryEntries) {
    return 1 + Math.max(0, inventoryEntries) / 4.0;
  }

  public static Builder builder(SlotSpace space) {
    return new Builder(space);
  }

  public SlotSpace space() {
    return space;
  }

  public double load(int slot) {
    return loads[slot];
  }

  public double total() {
    return total;
  }

  /** Adds up a slot's work, one Kustomization at a time. */
  public static final class Builder {
    private final SlotSpace space;
    private final double[] loads;

    private Builder(SlotSpace space) {
      this.space = space;
      this.loads = new double[space.count()];
    }

    /** Counts a Kustomization whose key hashes to {@code hash}. */
    public Builder add(long hash, int inventoryEntries) {
      return addToSlot(space.slotOf(hash), inventoryEntries);
    }

    /** Counts a Kustomization in {@code slot}. */
    public Builder addToSlot(int slot, int inventoryEntries) {
      loads[slot] += weight(inventoryEntries);
      return this;
    }

    /** Sets a slot's load as a replica reported it. */
    public Builder slot(int slot, double load) {
      loads[slot] = load;
      return this;
    }

    public SlotLoads build() {
      return new SlotLoads(space, loads.clone());
    }
  }
}
