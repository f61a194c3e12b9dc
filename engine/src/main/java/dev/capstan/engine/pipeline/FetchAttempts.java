package dev.capstan.engine.pipeline;

import dev.capstan.engine.core.NamespacedName;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which sources this process has looked at since it started: fetched, failed to fetch, or found
 * suspended. The artifact store starts empty (a pod's emptyDir, a new directory), so after a
 * restart every source's status names an artifact the store does not hold until the source's first
 * fetch here. Until that fetch has ended, a missing artifact is on its way, not a failure: what
 * reads it waits without turning its status to failed. Only for a while after the start, so that a
 * source this process never fetches still ends in a failure, and the set of sources is let go then.
 */
public final class FetchAttempts {
  /** How long after the start a missing artifact is taken to be on its way at most. */
  static final Duration GRACE = Duration.ofMinutes(2);

  private final Clock clock;
  private final Instant until;
  private final Set<Key> ended = ConcurrentHashMap.newKeySet();

  private record Key(String kind, NamespacedName source) {}

  /** Counted from now, on {@code clock}. */
  public FetchAttempts(Clock clock) {
    this.clock = clock;
    this.until = clock.instant().plus(GRACE);
  }

  /** A look at {@code source} of {@code kind} (e.g. GitRepository) ended. */
  void ended(String kind, NamespacedName source) {
    if (withinGrace()) {
      ended.add(new Key(kind, source));
    } else {
      ended.clear();
    }
  }

  /**
   * Whether an artifact of {@code source} missing from the store is on its way: this process has
   * not looked at the source yet, and started only a short while ago.
   */
  public boolean onItsWay(String kind, NamespacedName source) {
    if (!withinGrace()) {
      ended.clear();
      return false;
    }
    return !ended.contains(new Key(kind, source));
  }

  private boolean withinGrace() {
    return clock.instant().isBefore(until);
  }
}
