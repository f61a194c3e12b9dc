package dev.capstan.engine.kustomization;

import dev.capstan.engine.core.NamespacedName;
import dev.capstan.engine.pipeline.Acting;
import dev.capstan.engine.remote.RemoteClusters.Remote;
import java.util.Optional;

/**
 * Who acts for a Kustomization in one reconcile, decided once by {@link ActingIdentities}: the
 * service account it acts as (if any), acting in the engine's cluster, and, with spec.kubeConfig,
 * in the remote cluster.
 *
 * @param serviceAccount its own service account or the engine's default; empty: the engine
 * @param reader who reads, as messages name it: the service account's user name, or "the engine"
 * @param local reads its inputs (substituteFrom, dependsOn) in the engine's cluster
 * @param acting applies, prunes and reads health: in the remote cluster if there is one
 * @param remote the remote cluster of spec.kubeConfig, once reached; empty without one
 */
record ActingIdentity(
    Optional<NamespacedName> serviceAccount,
    String reader,
    Acting local,
    Acting acting,
    Optional<Remote<Acting>> remote) {

  /** Acting as {@code serviceAccount} (or the engine) in the engine's cluster. */
  static ActingIdentity local(Optional<NamespacedName> serviceAccount, Acting local) {
    String reader = serviceAccount.map(ServiceAccountClients::username).orElse("the engine");
    return new ActingIdentity(serviceAccount, reader, local, local, Optional.empty());
  }

  /** The same, acting in the remote cluster {@code reached}. */
  ActingIdentity withRemote(Remote<Acting> reached) {
    return new ActingIdentity(
        serviceAccount, reader, local, reached.acting(), Optional.of(reached));
  }

  /** The remote cluster as the health monitor watches it. */
  Optional<HealthTracking.RemoteCluster> cluster() {
    return remote.map(r -> new HealthTracking.RemoteCluster(r.id(), r.client()));
  }
}
