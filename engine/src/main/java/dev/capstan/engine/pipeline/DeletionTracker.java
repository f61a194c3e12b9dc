package dev.capstan.engine.pipeline;

import dev.capstan.engine.NamespacedName;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * For each Kustomization being deleted that waits for its dependents: when the engine first saw it
 * being deleted, and when one of the Kustomizations below it last went away (its progress).
 */
final class DeletionTracker {

  /** How long one has been seen being deleted, and how long nothing below it went away. */
  record Seen(Duration seenFor, Duration stalledFor) {}

  private record State(Instant firstSeen, Set<NamespacedName> below, Instant progress) {}

  private final Map<NamespacedName, State> states = new ConcurrentHashMap<>();

  /** Records a look at {@code key} with {@code below} still there at {@code now}. */
  Seen look(NamespacedName key, Set<NamespacedName> below, Instant now) {
    State state =
        states.compute(
            key,
            (k, previous) -> {
              if (previous == null) {
                return new State(now, Set.copyOf(below), now);
              }
              Set<NamespacedName> gone = new HashSet<>(previous.below());
              gone.removeAll(below);
              return new State(
                  previous.firstSeen(),
                  Set.copyOf(below),
                  gone.isEmpty() ? previous.progress() : now);
            });
    return new Seen(
        Duration.between(state.firstSeen(), now), Duration.between(state.progress(), now));
  }

  void forget(NamespacedName key) {
    states.remove(key);
  }
}
