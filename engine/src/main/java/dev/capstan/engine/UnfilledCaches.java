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
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Which caches of the controllers have not filled once the framework's start returned: it waits for
 * each at most the sync timeout (for a controller's own kind, then for what else it watches), its
 * lists tried again meanwhile, and then goes on without it. An engine that went on would never
 * reconcile that kind, or see it change, so the start fails instead, naming the kinds.
 */
final class UnfilledCaches {
  /**
   * How long a cache that filled may take to open its watch again before it counts as unfilled: a
   * watch the API server closed is opened again within a second or two; one it refuses never is.
   */
  static final Duration WATCH_GRACE = Duration.ofSeconds(10);

  private static final Predicate<InformerHealthIndicator> UNLISTED = i -> !i.hasSynced();
  private static final Predicate<InformerHealthIndicator> UNFILLED =
      i -> !i.hasSynced() || !i.isWatching();

  private UnfilledCaches() {}

  /**
   * The message naming every kind whose cache has not filled (never listed, or listed and not
   * watched within {@link #WATCH_GRACE}), after {@code tried} of trying; empty when all have.
   */
  static Optional<String> of(RuntimeInfo runtime, Duration tried) {
    long giveUp = System.nanoTime() + WATCH_GRACE.toNanos();
    SortedSet<String> kinds = kinds(runtime, UNFILLED);
    // Only caches that listed and are not watching are looked at again, until the grace passes.
    while (!kinds.isEmpty() && kinds(runtime, UNLISTED).isEmpty() && System.nanoTime() < giveUp) {
      try {
        TimeUnit.MILLISECONDS.sleep(250);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
      kinds = kinds(runtime, UNFILLED);
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

  private static SortedSet<String> kinds(
      RuntimeInfo runtime, Predicate<InformerHealthIndicator> unfilled) {
    SortedSet<String> kinds = new TreeSet<>();
    for (Map<String, InformerWrappingEventSourceHealthIndicator> sources :
        runtime.unhealthyInformerWrappingEventSourceHealthIndicator().values()) {
      sources.forEach(
          (name, source) -> {
            if (anyOf(source, unfilled)) {
              kinds.add(kindOf(name, source));
            }
          });
    }
    return kinds;
  }

  private static boolean anyOf(
      InformerWrappingEventSourceHealthIndicator<?> source,
      Predicate<InformerHealthIndicator> unfilled) {
    return source.informerHealthIndicators().values().stream().anyMatch(unfilled);
  }

  private static String kindOf(String name, InformerWrappingEventSourceHealthIndicator<?> source) {
    return source instanceof EventSource<?, ?> events
        ? events.resourceType().getSimpleName()
        : name;
  }
}
