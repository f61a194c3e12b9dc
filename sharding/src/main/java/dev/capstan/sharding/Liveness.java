package dev.capstan.sharding;

import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.LongSupplier;

/**
 * Which replicas' Leases are live, judged by this process's own clock: a Lease is live until a
 * lease duration has passed, here, since this process last saw it change. The renew time written in
 * the Lease is never compared with the local clock, so a replica whose clock is skewed is neither
 * taken for dead nor kept alive by it (as Kubernetes' leader election judges a Lease).
 */
public final class Liveness {
  private record Seen(String version, long atNanos, long durationNanos) {}

  private final LongSupplier nanoClock;
  private final Map<String, Seen> seen = new HashMap<>();

  public Liveness(LongSupplier nanoClock) {
    this.nanoClock = nanoClock;
  }

  /**
   * Records a Lease as read now: its holder, a value that changes on every renewal (its
   * resourceVersion), and its duration.
   */
  public void observe(String replica, String version, long durationSeconds) {
    Seen before = seen.get(replica);
    long duration = durationSeconds * 1_000_000_000L;
    if (before == null || !before.version().equals(version)) {
      seen.put(replica, new Seen(version, nanoClock.getAsLong(), duration));
    } else if (before.durationNanos() != duration) {
      seen.put(replica, new Seen(version, before.atNanos(), duration));
    }
  }

  /** Forgets a replica whose Lease was deleted: it is no longer live. */
  public void forget(String replica) {
    seen.remove(replica);
  }

  /**
   * When, on this process's clock, the next of the live Leases other than {@code self} expires
   * unless it is seen to change again: a round then finds its replica dead at once, rather than up
   * to a renew period later. Empty when no other Lease is live.
   */
  public OptionalLong nextExpiry(String self) {
    long now = nanoClock.getAsLong();
    return seen.entrySet().stream()
        .filter(e -> !e.getKey().equals(self))
        .mapToLong(e -> e.getValue().atNanos() + e.getValue().durationNanos())
        .filter(expiry -> expiry > now)
        .min();
  }

  /** The replicas whose Lease changed within its duration, by name. */
  public Set<String> live() {
    long now = nanoClock.getAsLong();
    Set<String> live = new TreeSet<>();
    seen.forEach(
        (replica, s) -> {
          if (now - s.atNanos() < s.durationNanos()) {
            live.add(replica);
          }
        });
    return live;
  }
}
