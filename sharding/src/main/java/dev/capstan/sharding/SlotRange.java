package dev.capstan.sharding;

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
}
