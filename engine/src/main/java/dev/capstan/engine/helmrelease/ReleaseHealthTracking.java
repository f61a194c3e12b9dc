package dev.capstan.engine.helmrelease;

import dev.capstan.decryption.Plaintexts;
import dev.capstan.engine.core.NamespacedName;
import dev.capstan.engine.kustomization.HealthTracking.RemoteCluster;
import dev.capstan.health.AggregateHealth;
import dev.capstan.health.HealthEvaluator;
import dev.capstan.kube.ObjectRef;
import java.util.List;
import java.util.Optional;

/** Keeps a released HelmRelease's Healthy condition true to the cluster between reconciles. */
public interface ReleaseHealthTracking {

  ReleaseHealthTracking NONE =
      new ReleaseHealthTracking() {
        @Override
        public void track(
            NamespacedName key,
            List<ObjectRef> objects,
            HealthEvaluator evaluator,
            Plaintexts fromSecrets,
            Optional<RemoteCluster> cluster,
            Optional<AggregateHealth> written) {}

        @Override
        public void untrack(NamespacedName key) {}
      };

  /** A reconcile of {@code key} starts: Healthy is its to write until {@link #reconciled}. */
  default void reconciling(NamespacedName key) {}

  /** The reconcile of {@code key} ended: its objects are looked at again. */
  default void reconciled(NamespacedName key) {}

  /**
   * From now on, watch the objects of the release of {@code key}, judged by {@code evaluator}; a
   * health message quoting one of {@code fromSecrets} is redacted. With {@code cluster}, the
   * objects are in that remote cluster ({@code spec.kubeConfig}). {@code written} is the health its
   * status tells already, if any.
   */
  void track(
      NamespacedName key,
      List<ObjectRef> objects,
      HealthEvaluator evaluator,
      Plaintexts fromSecrets,
      Optional<RemoteCluster> cluster,
      Optional<AggregateHealth> written);

  /** Stop watching the objects of {@code key}. */
  void untrack(NamespacedName key);

  /**
   * The health of {@code objects}, judged by {@code evaluator}, as the watch of {@code key} has
   * them, when it watches exactly these in the engine's own cluster; empty otherwise (see {@link
   * dev.capstan.engine.kustomization.HealthTracking#watched}).
   */
  default Optional<AggregateHealth> watched(
      NamespacedName key, List<ObjectRef> objects, HealthEvaluator evaluator) {
    return Optional.empty();
  }
}
