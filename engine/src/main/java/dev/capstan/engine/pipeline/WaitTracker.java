package dev.capstan.engine.pipeline;

import dev.capstan.api.kustomize.Inventory;
import dev.capstan.engine.NamespacedName;
import dev.capstan.health.HealthEvaluator;
import dev.capstan.health.ObjectRef;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Health waits in progress. A wait is not a blocked thread: the reconcile records it here and comes
 * back (on an event of a watched object, or after a short requeue) to look again. A new generation,
 * revision or reconcile request makes the recorded wait stale, which cancels it.
 */
public final class WaitTracker {

  /** One wait: for which generation and revision, on which objects, until when. */
  record PendingWait(
      long generation,
      String revision,
      String requestedAt,
      Instant deadline,
      List<ObjectRef> objects,
      Inventory inventory,
      HealthEvaluator evaluator,
      Instant started) {

    boolean sameAttempt(long otherGeneration, String otherRevision, String otherRequestedAt) {
      return generation == otherGeneration
          && revision.equals(otherRevision)
          && Objects.equals(requestedAt, otherRequestedAt);
    }
  }

  private final Map<NamespacedName, PendingWait> waits = new ConcurrentHashMap<>();

  /** Whether a reconcile of {@code key} is waiting for its objects to become healthy. */
  public boolean isWaiting(NamespacedName key) {
    return waits.containsKey(key);
  }

  Optional<PendingWait> get(NamespacedName key) {
    return Optional.ofNullable(waits.get(key));
  }

  void start(NamespacedName key, PendingWait wait) {
    waits.put(key, wait);
  }

  void finish(NamespacedName key) {
    waits.remove(key);
  }
}
