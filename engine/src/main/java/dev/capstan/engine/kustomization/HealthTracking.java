package dev.capstan.engine.kustomization;

import dev.capstan.engine.core.NamespacedName;
import dev.capstan.health.AggregateHealth;
import dev.capstan.health.HealthEvaluator;
import dev.capstan.kube.ObjectRef;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/** Keeps a Kustomization's Healthy condition true to the cluster between reconciles. */
public interface HealthTracking {

  HealthTracking NONE =
      new HealthTracking() {
        @Override
        public void track(
            NamespacedName key,
            List<ObjectRef> objects,
            HealthEvaluator evaluator,
            Optional<ServiceAccount> readAs,
            Optional<RemoteCluster> cluster,
            Optional<AggregateHealth> written) {}

        @Override
        public void untrack(NamespacedName key) {}
      };

  /**
   * The service account a Kustomization acts as. {@code client} gives a client impersonating it
   * each time it is asked rather than once, because an unused client is closed after a while and a
   * tracked inventory may outlive that.
   */
  record ServiceAccount(NamespacedName name, Supplier<KubernetesClient> client) {
    /** The user name the API server knows the service account by. */
    public String username() {
      return "system:serviceaccount:" + name.namespace() + ":" + name.name();
    }
  }

  /**
   * The remote cluster a Kustomization applies to. Its {@code id} changes whenever a new client is
   * built for it; the client stays open until {@link #clusterClosed} names its id.
   */
  record RemoteCluster(String id, KubernetesClient client) {}

  /**
   * From now on, watch these objects (replacing what was watched for {@code key} before). With
   * {@code readAs}, health is reported only for objects that service account may read. With {@code
   * cluster}, the objects are in that remote cluster rather than the engine's own. {@code written}
   * is the health the status already tells, if any: the Healthy condition is written again only
   * when what is watched says otherwise.
   */
  void track(
      NamespacedName key,
      List<ObjectRef> objects,
      HealthEvaluator evaluator,
      Optional<ServiceAccount> readAs,
      Optional<RemoteCluster> cluster,
      Optional<AggregateHealth> written);

  /** The client of remote cluster {@code id} was closed: nothing is watched through it any more. */
  default void clusterClosed(String id) {}

  /**
   * The status of {@code key} is being written by someone else (its own reconcile): the health it
   * tells is not known until {@link #track} is given it again.
   */
  default void rewriting(NamespacedName key) {}

  /**
   * Looks again at the objects of {@code key} and tells its owner when their health is not the one
   * its status is known to tell (after {@link #rewriting}, none is known until {@link #track}).
   */
  default void reevaluate(NamespacedName key) {}

  /** Stop watching the objects of {@code key}. */
  void untrack(NamespacedName key);

  /**
   * The health of {@code objects} as the watch has them, so that a periodic look need not read each
   * one from the API server: only when {@code key}'s watch holds exactly these objects, in the
   * engine's own cluster and with its rights (no {@code readAs}), judges them by {@code evaluator}
   * itself, and watches every kind at the objects' own version, listed and watching now; empty
   * otherwise. Its copies may lag the API server by a watch event.
   */
  default Optional<AggregateHealth> watched(
      NamespacedName key, List<ObjectRef> objects, HealthEvaluator evaluator) {
    return Optional.empty();
  }
}
