package dev.capstan.engine;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.RegisteredController;
import io.javaoperatorsdk.operator.health.InformerHealthIndicator;
import io.javaoperatorsdk.operator.health.InformerWrappingEventSourceHealthIndicator;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * Whether the caches of the controller of an object's kind have filled: every informer it reads
 * listed once. The framework starts a controller's reconciles when its informers listed or their
 * sync timeout passed; in the second case they would act on an empty view (a source or a dependency
 * missing, said in statuses), so the gate turns them away until the engine's start has checked
 * every cache. True is remembered per kind; a kind no controller reconciles is true (it is nobody's
 * cache).
 */
final class ControllerCaches implements Predicate<HasMetadata> {
  private final Set<Class<?>> filled = ConcurrentHashMap.newKeySet();
  private volatile Operator operator;

  /** Answers from {@code operator}'s controllers; false for every controller's kind until then. */
  void follow(Operator operator) {
    this.operator = operator;
  }

  @Override
  public boolean test(HasMetadata object) {
    Class<?> kind = object.getClass();
    if (filled.contains(kind)) {
      return true;
    }
    Operator current = operator;
    if (current == null) {
      return false;
    }
    boolean reconciled = false;
    for (RegisteredController<?> controller : current.getRegisteredControllers()) {
      if (controller.getConfiguration().getResourceClass().equals(kind)) {
        if (!listed(controller)) {
          return false;
        }
        reconciled = true;
      }
    }
    if (reconciled) {
      filled.add(kind);
    }
    return true;
  }

  /** Every informer of the controller listed; false before they started (none to ask yet). */
  private static boolean listed(RegisteredController<?> controller) {
    var sources = controller.getControllerHealthInfo().informerEventSourceHealthIndicators();
    return !sources.isEmpty() && sources.values().stream().allMatch(ControllerCaches::listed);
  }

  private static boolean listed(InformerWrappingEventSourceHealthIndicator<?> source) {
    return !source.informerHealthIndicators().isEmpty() && synced(source);
  }

  /** Every informer the event source has started listed once (none started: true). */
  static boolean synced(InformerWrappingEventSourceHealthIndicator<?> source) {
    return source.informerHealthIndicators().values().stream()
        .allMatch(InformerHealthIndicator::hasSynced);
  }
}
