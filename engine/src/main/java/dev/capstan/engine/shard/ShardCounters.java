package dev.capstan.engine.shard;

import java.util.concurrent.atomic.AtomicLong;

/** What this replica owns and how much changed hands, for the metrics. */
public final class ShardCounters {
  private final AtomicLong claimed = new AtomicLong();
  private final AtomicLong draining = new AtomicLong();
  private final AtomicLong handoffs = new AtomicLong();

  void claimed(long slots, long drainingSlots) {
    long before = claimed.getAndSet(slots);
    if (before != slots) {
      handoffs.addAndGet(Math.abs(slots - before));
    }
    draining.set(drainingSlots);
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
