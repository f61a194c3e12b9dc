package dev.capstan.engine.kustomization;

import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.engine.conditions.Reason;
import dev.capstan.engine.core.NamespacedName;
import dev.capstan.engine.pipeline.Acting;
import dev.capstan.engine.remote.RemoteClusterException;
import dev.capstan.engine.remote.RemoteClusters;
import dev.capstan.engine.remote.RemoteClusters.Remote;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.Optional;

/**
 * Decides who acts for a Kustomization: its service account (or the engine), in the engine's
 * cluster or in the remote cluster of spec.kubeConfig. A reconcile asks once and passes the answer
 * on.
 */
final class ActingIdentities {
  private final ServiceAccountClients accounts;
  private final RemoteClusters<Acting> remotes;

  ActingIdentities(ServiceAccountClients accounts, RemoteClusters<Acting> remotes) {
    this.accounts = accounts;
    this.remotes = remotes;
  }

  /** Who acts for {@code ks} in the engine's cluster; the remote cluster is not reached yet. */
  ActingIdentity local(Kustomization ks) {
    Optional<NamespacedName> account = accounts.serviceAccountOf(ks);
    return ActingIdentity.local(account, accounts.actingAs(account));
  }

  /**
   * {@code attempt} acting with the remote cluster of spec.kubeConfig, reachable; unchanged when
   * the Kustomization has none.
   */
  Attempt reachRemote(Attempt attempt) {
    return attempt.actingAs(reachRemote(attempt.object(), attempt.identity()));
  }

  private ActingIdentity reachRemote(Kustomization ks, ActingIdentity identity) {
    if (ks.getSpec().kubeConfig() == null) {
      remotes.forget(NamespacedName.of(ks)); // the field was removed: no client is kept for it
      return identity;
    }
    try {
      Remote<Acting> remote = remotes.remoteFor(ks, identity.serviceAccount());
      remotes.checkReachable(remote);
      return identity.withRemote(remote);
    } catch (RemoteClusterException e) {
      throw StageFailure.transientFailure(Reason.RECONCILIATION_FAILED, e.getMessage());
    }
  }

  /**
   * Who acts for {@code ks}, asked afresh: in its remote cluster if it names one. For what comes
   * outside a reconcile (a deletion, the health monitor's later reads).
   */
  Acting actingFor(Kustomization ks) {
    Optional<NamespacedName> account = accounts.serviceAccountOf(ks);
    if (ks.getSpec() != null && ks.getSpec().kubeConfig() != null) {
      return remotes.remoteFor(ks, account).acting();
    }
    return accounts.actingAs(account);
  }

  /**
   * Who the health monitor reads as: the service account the apply and the wait acted as (in the
   * remote cluster, for a Kustomization with spec.kubeConfig).
   */
  Optional<HealthTracking.ServiceAccount> readAs(Kustomization ks, ActingIdentity identity) {
    // The monitor keeps the supplier as long as it tracks the inventory, so it holds only what
    // choosing the service account needs, not the whole object with its status. It asks again
    // each time: an unused client is closed after a while.
    Kustomization named = new Kustomization();
    named.setMetadata(
        new ObjectMetaBuilder()
            .withNamespace(ks.getMetadata().getNamespace())
            .withName(ks.getMetadata().getName())
            .build());
    named.setSpec(ks.getSpec());
    return identity
        .serviceAccount()
        .map(
            account -> new HealthTracking.ServiceAccount(account, () -> actingFor(named).client()));
  }
}
