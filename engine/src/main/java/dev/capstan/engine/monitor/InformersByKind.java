package dev.capstan.engine.monitor;

import dev.capstan.kube.GroupKind;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * At most one informer per kind (group and kind; the version does not matter): started when some
 * user first needs the kind, closed once none does. How an informer is made (what it selects, what
 * it keeps) is its owner's choice; the health monitor's and the dependency watches' each keep a
 * registry of their own. Not thread-safe: the owner serializes calls.
 */
final class InformersByKind implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(InformersByKind.class);

  private final String purpose;
  private final Map<GroupKind, SharedIndexInformer<GenericKubernetesResource>> informers =
      new HashMap<>();

  /**
   * @param purpose what the informers watch for, for log lines (e.g. "health")
   */
  InformersByKind(String purpose) {
    this.purpose = purpose;
  }

  Optional<SharedIndexInformer<GenericKubernetesResource>> get(GroupKind kind) {
    return Optional.ofNullable(informers.get(kind));
  }

  boolean watched(GroupKind kind) {
    return informers.containsKey(kind);
  }

  /** The kinds watched now. */
  Set<GroupKind> kinds() {
    return Set.copyOf(informers.keySet());
  }

  /**
   * Watches {@code kind} unless it is watched already; {@code start} makes and runs its informer,
   * or gives empty when it cannot (then nothing is kept).
   */
  void watch(
      GroupKind kind,
      Function<GroupKind, Optional<SharedIndexInformer<GenericKubernetesResource>>> start) {
    if (!informers.containsKey(kind)) {
      start.apply(kind).ifPresent(informer -> informers.put(kind, informer));
    }
  }

  /** Closes the informers of the kinds not in {@code needed}; returns those kinds. */
  Set<GroupKind> retainOnly(Set<GroupKind> needed) {
    Set<GroupKind> stopped = new HashSet<>();
    informers
        .entrySet()
        .removeIf(
            e -> {
              if (needed.contains(e.getKey())) {
                return false;
              }
              e.getValue().close();
              LOG.debug("stopped watching {} for {}", e.getKey(), purpose);
              stopped.add(e.getKey());
              return true;
            });
    return stopped;
  }

  /** Forgets the informer of {@code kind} and hands it over (to be stopped by its owner). */
  Optional<SharedIndexInformer<GenericKubernetesResource>> remove(GroupKind kind) {
    return Optional.ofNullable(informers.remove(kind));
  }

  @Override
  public void close() {
    informers.values().forEach(SharedIndexInformer::close);
    informers.clear();
  }
}
