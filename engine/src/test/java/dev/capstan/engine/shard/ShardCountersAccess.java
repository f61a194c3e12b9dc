package dev.capstan.engine.shard;

/** Sets what a membership round would, for tests of what reads the counters. */
public final class ShardCountersAccess {
  private ShardCountersAccess() {}

  /** As after a round that claims {@code slots}, drains {@code draining} and owns {@code owned}. */
  public static void set(ShardCounters counters, long slots, long draining, long owned) {
    counters.claimed(slots, draining);
    counters.owned(owned);
  }
}
