package dev.capstan.engine.helmrelease;

import dev.capstan.api.helm.HelmRelease;
import dev.capstan.api.kustomize.KubeConfigReference;
import dev.capstan.engine.conditions.ReleaseReason;
import dev.capstan.engine.core.NamespacedName;
import dev.capstan.engine.kustomization.HealthTracking.RemoteCluster;
import dev.capstan.engine.pipeline.Acting;
import dev.capstan.engine.remote.RemoteClusterException;
import dev.capstan.engine.remote.RemoteClusters;
import dev.capstan.engine.remote.RemoteClusters.Remote;
import java.util.Optional;
import java.util.function.Function;

/**
 * Chooses the cluster a HelmRelease acts in, as Flux's helm-controller does: the engine's own,
 * acting as the release's service account (or the engine's default one); or, with {@code
 * spec.kubeConfig}, the remote cluster its Secret or ConfigMap describes, with the kubeconfig's
 * identity, impersonating {@code spec.serviceAccountName} there when set. The release's objects,
 * its records, its health and its uninstall are all in that cluster; its chart, values and
 * dependencies are read in the engine's own by the callers. A remote cluster that cannot be used
 * fails the reconcile: nothing is ever installed in the engine's cluster instead.
 */
public final class ReleaseClusters {

  /** Who acts for HelmReleases in the engine's cluster: the service account's client. */
  @FunctionalInterface
  public interface LocalActing {
    Acting actingAs(Optional<NamespacedName> serviceAccount);
  }

  /**
   * Where one HelmRelease acts.
   *
   * @param acting applies, prunes, deletes, reads health and keeps the release records
   * @param cluster the remote cluster as the health monitor watches it; empty: the engine's own
   * @param account the service account impersonated there; empty: the engine's own rights
   */
  record Target(Acting acting, Optional<RemoteCluster> cluster, Optional<NamespacedName> account) {}

  /** The remote clusters, reached (asked for their version) when chosen. */
  interface Remotes {
    /**
     * @throws RemoteClusterException when the cluster cannot be used
     */
    Remote<Acting> reach(
        NamespacedName key, KubeConfigReference ref, Optional<NamespacedName> account);

    void forget(NamespacedName key);
  }

  private final Function<HelmRelease, Optional<NamespacedName>> accountOf;
  private final LocalActing local;
  private final Remotes remotes;

  /**
   * @param accountOf the service account a HelmRelease acts as (its own or the default), if any
   * @param local acting in the engine's cluster as a service account
   * @param remotes the clients of HelmReleases' remote clusters (not shared with Kustomizations:
   *     its keys are names within one kind)
   */
  public ReleaseClusters(
      Function<HelmRelease, Optional<NamespacedName>> accountOf,
      LocalActing local,
      RemoteClusters<Acting> remotes) {
    this(
        accountOf,
        local,
        new Remotes() {
          @Override
          public Remote<Acting> reach(
              NamespacedName key, KubeConfigReference ref, Optional<NamespacedName> account) {
            Remote<Acting> remote = remotes.remoteFor(key, ref, account);
            remotes.checkReachable(remote);
            return remote;
          }

          @Override
          public void forget(NamespacedName key) {
            remotes.forget(key);
          }
        });
  }

  ReleaseClusters(
      Function<HelmRelease, Optional<NamespacedName>> accountOf,
      LocalActing local,
      Remotes remotes) {
    this.accountOf = accountOf;
    this.local = local;
    this.remotes = remotes;
  }

  /**
   * Where {@code release} acts now; its remote cluster, if it names one, answered a request.
   *
   * @throws ReleaseFailure (RESTClientError) when the remote cluster cannot be used
   */
  Target targetFor(HelmRelease release) {
    try {
      return reach(release);
    } catch (RemoteClusterException e) {
      throw unusable(e);
    }
  }

  /**
   * Where a deleted {@code release} is uninstalled; empty when its remote cluster's Secret or
   * ConfigMap is gone, as Flux lets such a release go without an uninstall (the cluster is likely
   * gone with it).
   *
   * @throws ReleaseFailure (RESTClientError) when the remote cluster cannot be used otherwise
   */
  Optional<Target> uninstallTargetFor(HelmRelease release) {
    try {
      return Optional.of(reach(release));
    } catch (RemoteClusterException e) {
      if (e.referenceMissing()) {
        return Optional.empty();
      }
      throw unusable(e);
    }
  }

  private Target reach(HelmRelease release) {
    NamespacedName key = NamespacedName.of(release);
    Optional<NamespacedName> account = accountOf.apply(release);
    KubeConfigReference ref = release.getSpec() == null ? null : release.getSpec().kubeConfig();
    if (ref == null) {
      remotes.forget(key); // the field was removed: no client is kept for it
      return new Target(local.actingAs(account), Optional.empty(), account);
    }
    Remote<Acting> remote = remotes.reach(key, ref, account);
    return new Target(
        remote.acting(), Optional.of(new RemoteCluster(remote.id(), remote.client())), account);
  }

  /** The HelmRelease is gone: the client of its remote cluster, if any, is closed. */
  void forget(HelmRelease release) {
    remotes.forget(NamespacedName.of(release));
  }

  private static ReleaseFailure unusable(RemoteClusterException e) {
    return ReleaseFailure.failed(ReleaseReason.REST_CLIENT_ERROR, e.getMessage());
  }
}
