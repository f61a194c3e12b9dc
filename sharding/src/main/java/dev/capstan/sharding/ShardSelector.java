package dev.capstan.sharding;

import java.util.List;
import java.util.stream.Collectors;

/**
 * One replica's share as the API server filters it: the {@code shardSelector} of a list or watch
 * ({@code shardRange(field, 'start', 'end') || ...}), and the same test made in the process where
 * the server does not offer sharded watches.
 */
public record ShardSelector(ShardKey key, SlotSpace space, List<SlotRange> ranges) {
  public ShardSelector {
    ranges = List.copyOf(ranges);
  }

  /** The selector's wire form; empty when the share is empty (the caller then watches nothing). */
  public String expression() {
    return ranges.stream()
        .map(
            r ->
                "shardRange("
                    + key.fieldPath()
                    + ", '"
                    + space.bound(r.from())
                    + "', '"
                    + space.bound(r.to())
                    + "')")
        .collect(Collectors.joining(" || "));
  }

  /** Whether an object whose key field has this value belongs to the share. */
  public boolean matches(String value) {
    int slot = space.slotOf(key.hash(value));
    return ranges.stream().anyMatch(r -> r.contains(slot));
  }
}
