package dev.capstan.engine.kustomization;

import dev.capstan.applier.apply.ResourceType;
import dev.capstan.engine.core.NamespacedName;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Set;

/**
 * Wakes a Kustomization that waits for objects it depends on (other than Kustomizations, whose
 * changes the controller watches anyway) as soon as one of them changes, instead of at its
 * retryInterval.
 */
public interface DependencyWatching {

  DependencyWatching NONE =
      new DependencyWatching() {
        @Override
        public void await(
            NamespacedName dependent, Set<Awaited> objects, KubernetesClient reader) {}

        @Override
        public void release(NamespacedName dependent) {}
      };

  /**
   * An object waited for: how its kind is served, and its namespace ("" at cluster scope) and name.
   */
  record Awaited(ResourceType type, String namespace, String name) {}

  /**
   * From now on wake {@code dependent} when one of {@code objects} changes (replacing what it
   * awaited). {@code reader} is the client it reads them with, for watches the engine's own
   * identity may not make.
   */
  void await(NamespacedName dependent, Set<Awaited> objects, KubernetesClient reader);

  /** Stop waking {@code dependent} (its dependencies are ready, or it is gone). */
  void release(NamespacedName dependent);
}
