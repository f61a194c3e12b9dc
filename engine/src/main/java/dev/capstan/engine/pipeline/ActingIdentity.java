package dev.capstan.engine.pipeline;

import dev.capstan.engine.NamespacedName;
import dev.capstan.engine.remote.RemoteClusters.Remote;
import java.util.Optional;

/**
 * Who acts for a Kustomization in one reconcile, decided once by {@link ActingIdentities}: the
 * service account it acts as (if any), acting in the engine's cluster, and, with spec.kubeConfig,
 * in the remote cluster.
 *
 * @param serviceAccount its own service account or the engine's default; empty: the engine
 * @param local reads its inputs (substituteFrom, dependsOn) in the engine's cluster
 * @param remote the remote cluster of spec.kubeConfig, once reached; empty without one
 */
record ActingIdentity(
    Optional<NamespacedName> serviceAccount, Acting local, Optional<Remote<Acting>> remote) {

  /** Who applies, prunes and reads health: in the remote cluster if there is one. */
  Acting acting() {
    return remote.map(Remote::acting).orElse(local);
  }

  /** Who reads, as messages name it. */
  String reader() {
    return serviceAccount.map(ServiceAccountClients::username).orElse("the engine");
  }

  /** The remote cluster as the health monitor watches it. */
  Optional<HealthTracking.RemoteCluster> cluster() {
    return remote.map(r -> new HealthTracking.RemoteCluster(r.id(), r.client()));
  }

  ActingIdentity withRemote(Remote<Acting> reached) {
    return new ActingIdentity(serviceAccount, local, Optional.of(reached));
  }
}
