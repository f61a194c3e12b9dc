package dev.capstan.engine.pipeline;

import dev.capstan.engine.core.NamespacedName;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Which sources this process has looked at since it began to reconcile, and what each look stored.
 * The artifact store starts empty (a pod's emptyDir, a new directory), so after a restart every
 * source's status names an artifact the store does not hold until the source is fetched here. Until
 * then a missing artifact is on its way, not a failure: what reads it waits without turning its
 * status to failed. So it is while the last look stored another artifact than the one wanted (the
 * status naming it is about to be written, by this replica or by the source's owner). Only for a
 * while after the first reconcile (a standby's first is when it takes over), so that a source this
 * process never fetches still ends in a failure; the record is let go then.
 */
public final class FetchAttempts {
  /** How long after the first reconcile a missing artifact is taken to be on its way at most. */
  static final Duration GRACE = Duration.ofMinutes(2);

  private static final String NOTHING_STORED = "";

  private final Clock clock;
  private final AtomicReference<Instant> until = new AtomicReference<>();
  private final Map<Key, String> stored = new ConcurrentHashMap<>();

  private record Key(String kind, NamespacedName source) {}

  /** Counted from the first question or look, on {@code clock}. */
  public FetchAttempts(Clock clock) {
    this.clock = clock;
  }

  /**
   * A look at {@code source} of {@code kind} (e.g. GitRepository) ended, having stored the artifact
   * of {@code digest} (empty: it stored nothing, as a failed fetch or a suspended source).
   */
  void ended(String kind, NamespacedName source, Optional<String> digest) {
    if (withinGrace()) {
      stored.put(new Key(kind, source), digest.orElse(NOTHING_STORED));
    } else {
      stored.clear();
    }
  }

  /**
   * Whether the artifact {@code digest} of {@code source}, missing from the store, is on its way:
   * within the grace, this process has not looked at the source yet, or its last look stored
   * another artifact (whose status is being written). Asked before the store is, so that a look
   * that ends in between is not taken for a failure.
   */
  public boolean onItsWay(String kind, NamespacedName source, String digest) {
    if (!withinGrace()) {
      stored.clear();
      return false;
    }
    String last = stored.get(new Key(kind, source));
    return last == null || (!last.equals(NOTHING_STORED) && !last.equals(digest));
  }

  private boolean withinGrace() {
    Instant now = clock.instant();
    return now.isBefore(until.updateAndGet(u -> u != null ? u : now.plus(GRACE)));
  }
}
