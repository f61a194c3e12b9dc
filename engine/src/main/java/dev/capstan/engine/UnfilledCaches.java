package dev.capstan.engine;

import io.javaoperatorsdk.operator.RuntimeInfo;
import io.javaoperatorsdk.operator.health.InformerHealthIndicator;
import io.javaoperatorsdk.operator.health.InformerWrappingEventSourceHealthIndicator;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Which caches of the controllers have not filled once the framework's start returned: it waits for
 * each at most the sync timeout, its list tried again meanwhile, and then goes on without it. An
 * engine that went on would reconcile nothing of that kind, or act on an empty view of it, so the
 * start fails instead, naming the kinds. Only whether a cache ever filled counts: a watch that is
 * being opened again at this moment is no failure.
 */
final class UnfilledCaches {
  private UnfilledCaches() {}

  /** The message naming every kind whose cache has not filled, or empty when all have. */
  static Optional<String> of(RuntimeInfo runtime, Duration timeout) {
    SortedSet<String> kinds = new TreeSet<>();
    for (Map<String, InformerWrappingEventSourceHealthIndicator> sources :
        runtime.unhealthyInformerWrappingEventSourceHealthIndicator().values()) {
      sources.forEach(
          (name, source) -> {
            if (!filled(source)) {
              kinds.add(kindOf(name, source));
            }
          });
    }
    return message(kinds, timeout);
  }

  /** The message for {@code kinds} not listed and watched within {@code timeout}. */
  static Optional<String> message(SortedSet<String> kinds, Duration timeout) {
    if (kinds.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        "the engine could not list and watch "
            + String.join(", ", kinds)
            + " within "
            + timeout.toSeconds()
            + "s (is each CRD installed, and may the engine's account list and watch it? the"
            + " engine's log has the API server's answers)");
  }

  private static boolean filled(InformerWrappingEventSourceHealthIndicator<?> source) {
    return source.informerHealthIndicators().values().stream()
        .allMatch(InformerHealthIndicator::hasSynced);
  }

  private static String kindOf(String name, InformerWrappingEventSourceHealthIndicator<?> source) {
    return source instanceof EventSource<?, ?> events
        ? events.resourceType().getSimpleName()
        : name;
  }
}
