package dev.capstan.sharding;

/**
 * The 64-bit hash space cut into {@code 2^bits} equal slots, the unit of ownership. Few enough
 * slots that a replica's share is a short shard selector and a handoff names a handful; enough that
 * moving one slot moves a small part of the load (with 1,024 slots and 30 replicas, one slot is
 * about 3% of a replica's share).
 */
public record SlotSpace(int bits) {
  /** The default: 1,024 slots. */
  public static final SlotSpace DEFAULT = new SlotSpace(10);

  public SlotSpace {
    if (bits < 1 || bits > 16) {
      throw new IllegalArgumentException("slot bits must be 1 to 16, not " + bits);
    }
  }

  /** How many slots there are. */
  public int count() {
    return 1 << bits;
  }

  /** The slot a hash falls in: its top bits. */
  public int slotOf(long hash) {
    return (int) (hash >>> (64 - bits));
  }

  /**
   * The first hash of a slot as the API server writes range bounds: {@code 0x} and 16 lower-case
   * hex digits; the end of the last slot is 2^64, written with 17 digits.
   */
  public String bound(int slot) {
    if (slot == count()) {
      return "0x10000000000000000";
    }
    return String.format("0x%016x", ((long) slot) << (64 - bits));
  }
}
