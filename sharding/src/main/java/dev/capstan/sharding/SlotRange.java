package dev.capstan.sharding;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntPredicate;

/** The slots {@code from} (inclusive) to {@code to} (exclusive): one contiguous arc. */
public record SlotRange(int from, int to) {
  public SlotRange {
    if (from < 0 || to <= from) {
      throw new IllegalArgumentException("empty or negative slot range " + from + ".." + to);
    }
  }

  /** Whether a slot lies in the range. */
  public boolean contains(int slot) {
    return slot >= from && slot < to;
  }

  /** How many slots the range holds. */
  public int size() {
    return to - from;
  }

  /** The contiguous runs of the slots {@code 0..count} for which {@code in} holds, in order. */
  static List<SlotRange> runs(int count, IntPredicate in) {
    List<SlotRange> ranges = new ArrayList<>();
    int start = -1;
    for (int slot = 0; slot <= count; slot++) {
      boolean inside = slot < count && in.test(slot);
      if (inside && start < 0) {
        start = slot;
      } else if (!inside && start >= 0) {
        ranges.add(new SlotRange(start, slot));
        start = -1;
      }
    }
    return ranges;
  }
}
