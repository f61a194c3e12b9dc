package dev.capstan.engine.shard;

import java.util.concurrent.atomic.AtomicLong;

/** What this replica owns and how much changed hands, for the metrics. */
public final class ShardCounters {
  private final AtomicLong claimed = new AtomicLong();
  private final AtomicLong draining = new AtomicLong();
  private final AtomicLong handoffs = new AtomicLong();
  private final AtomicLong owned = new AtomicLong();

  void claimed(long slots, long drainingSlots) {
    long before = claimed.getAndSet(slots);
    if (before != slots) {
      handoffs.addAndGet(Math.abs(slots - before));
    }
    draining.set(drainingSlots);
  }

  void owned(long kustomizations) {
    owned.set(kustomizations);
  }

  /** Kustomizations in the slots this replica claims, as of its last round. */
  public long ownedKustomizations() {
    return owned.get();
  }

  /** Slots this replica claims now. */
  public long claimedSlots() {
    return claimed.get();
  }

  /** Slots it claims but is handing over. */
  public long drainingSlots() {
    return draining.get();
  }

  /** Slots gained or given up since the start (a count of handoffs, by slot). */
  public long handoffs() {
    return handoffs.get();
  }
}
