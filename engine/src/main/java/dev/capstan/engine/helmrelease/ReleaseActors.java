package dev.capstan.engine.helmrelease;

import dev.capstan.api.helm.HelmRelease;
import dev.capstan.engine.core.NamespacedName;
import dev.capstan.engine.dependencies.DependencyLookup;
import dev.capstan.engine.dependencies.ObjectDependency;
import dev.capstan.engine.kustomization.HealthTracking.RemoteCluster;
import dev.capstan.engine.pipeline.Acting;
import dev.capstan.helm.release.ReleaseStorage;
import dev.capstan.kube.SecretReader;
import dev.capstan.kube.SecretWriter;
import java.time.Clock;
import java.util.Optional;

/**
 * Who acts for a HelmRelease in one reconcile or deletion: applies, prunes and reads its objects'
 * health, and reads and writes its release records. With {@code spec.serviceAccountName} (or the
 * engine's default service account) that is a client impersonating the service account, as for
 * Kustomizations, so a tenant cannot make the engine do what its service account may not. With
 * {@code spec.kubeConfig} all of that happens in the remote cluster ({@link ReleaseClusters}).
 */
@FunctionalInterface
public interface ReleaseActors {

  /**
   * Who acts for one HelmRelease.
   *
   * @param acting applies, prunes, deletes and reads health
   * @param store Helm's release records, read and written by the same identity
   * @param crds whether a CRD is in the cluster, as the same identity sees it
   * @param dependencies reads what spec.dependsOn names, with the engine's client
   * @param claims reads live the objects a release would create, to refuse taking them over
   * @param namespaces the cluster's namespaces, for an install's target namespace
   * @param cluster the remote cluster all of that happens in; empty: the engine's own
   * @param account the service account all of that is done as; empty: the engine's own rights
   */
  record Actor(
      Acting acting,
      ReleaseStore store,
      CrdLookup crds,
      DependencyReads dependencies,
      ReleaseClaims claims,
      ReleaseNamespace.Namespaces namespaces,
      Optional<RemoteCluster> cluster,
      Optional<NamespacedName> account) {

    /** Acting in the engine's own cluster with its own rights. */
    Actor(
        Acting acting,
        ReleaseStore store,
        CrdLookup crds,
        DependencyReads dependencies,
        ReleaseClaims claims,
        ReleaseNamespace.Namespaces namespaces) {
      this(
          acting,
          store,
          crds,
          dependencies,
          claims,
          namespaces,
          Optional.empty(),
          Optional.empty());
    }

    /**
     * Whether it reads as the engine's health monitor does, in the engine's cluster with the
     * engine's rights: only then may the monitor's copies stand for its own reads.
     */
    boolean readsAsEngine() {
      return cluster.isEmpty() && account.isEmpty();
    }
  }

  /** Reads a depended-on object live. */
  @FunctionalInterface
  interface DependencyReads {
    DependencyLookup read(ObjectDependency id);
  }

  /** Whether a CustomResourceDefinition of that name is in the cluster. */
  @FunctionalInterface
  interface CrdLookup {
    boolean exists(String name);
  }

  /**
   * Who acts for {@code release} now.
   *
   * @throws ReleaseFailure when its cluster cannot be used
   */
  Actor actorFor(HelmRelease release);

  /**
   * Who uninstalls the deleted {@code release}; empty when no one can and it may go without: the
   * Secret or ConfigMap of its remote cluster is gone.
   *
   * @throws ReleaseFailure when its cluster cannot be used now
   */
  default Optional<Actor> uninstallerFor(HelmRelease release) {
    return Optional.of(actorFor(release));
  }

  /** {@code release} is gone: what was kept to act for it (a remote cluster's client) goes. */
  default void forget(HelmRelease release) {}

  /**
   * Acting where {@code clusters} chooses for each HelmRelease, its release records kept with that
   * acting's client; its dependencies read by {@code dependencies}, the engine's own reads, as Flux
   * reads them with the controller's rights rather than the release's service account.
   */
  static ReleaseActors of(ReleaseClusters clusters, DependencyReads dependencies, Clock clock) {
    return new ReleaseActors() {
      @Override
      public Actor actorFor(HelmRelease release) {
        return actor(clusters.targetFor(release), dependencies, clock);
      }

      @Override
      public Optional<Actor> uninstallerFor(HelmRelease release) {
        return clusters.uninstallTargetFor(release).map(t -> actor(t, dependencies, clock));
      }

      @Override
      public void forget(HelmRelease release) {
        clusters.forget(release);
      }
    };
  }

  private static Actor actor(
      ReleaseClusters.Target target, DependencyReads dependencies, Clock clock) {
    Acting acting = target.acting();
    ReleaseStorage storage =
        new ReleaseStorage(
            new SecretReader(acting.client()), new SecretWriter(acting.client()), clock);
    return new Actor(
        acting,
        ReleaseStore.of(storage),
        name ->
            acting.client().apiextensions().v1().customResourceDefinitions().withName(name).get()
                != null,
        dependencies,
        ReleaseClaims.of(acting.client()),
        ReleaseNamespace.Namespaces.of(acting.client()),
        target.cluster(),
        target.account());
  }
}
