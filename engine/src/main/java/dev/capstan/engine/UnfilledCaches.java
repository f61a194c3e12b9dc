package dev.capstan.engine;

import io.javaoperatorsdk.operator.RuntimeInfo;
import io.javaoperatorsdk.operator.health.InformerWrappingEventSourceHealthIndicator;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Which caches of the controllers have not filled once the framework's start returned: it waits for
 * each at most the sync timeout (for a controller's own kind, then for what else it watches), its
 * lists tried again meanwhile, and then goes on without it. An engine that went on would never
 * reconcile that kind (the gate turns it away), so the start fails instead, naming the kinds. Only
 * whether a cache ever listed counts: a watch being opened again at this moment is no failure, and
 * one the API server refuses after the list is not told apart from it (it is logged and retried).
 */
final class UnfilledCaches {
  private UnfilledCaches() {}

  /** The message naming every kind whose cache never listed, after {@code tried}; or empty. */
  static Optional<String> of(RuntimeInfo runtime, Duration tried) {
    SortedSet<String> kinds = new TreeSet<>();
    for (Map<String, InformerWrappingEventSourceHealthIndicator> sources :
        runtime.unhealthyInformerWrappingEventSourceHealthIndicator().values()) {
      sources.forEach(
          (name, source) -> {
            if (!ControllerCaches.synced(source)) {
              kinds.add(kindOf(name, source));
            }
          });
    }
    return message(kinds, tried);
  }

  /** The message for {@code kinds} not listed and watched after {@code tried} of trying. */
  static Optional<String> message(SortedSet<String> kinds, Duration tried) {
    if (kinds.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        "the engine could not list and watch "
            + String.join(", ", kinds)
            + " in "
            + tried.toSeconds()
            + "s of trying (is each CRD installed, and may the engine's account list and watch"
            + " it? the engine's log has the API server's answers)");
  }

  private static String kindOf(String name, InformerWrappingEventSourceHealthIndicator<?> source) {
    return source instanceof EventSource<?, ?> events
        ? events.resourceType().getSimpleName()
        : name;
  }
}
