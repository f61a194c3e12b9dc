package dev.capstan.engine.helmrelease;

import dev.capstan.api.helm.HelmRelease;
import dev.capstan.engine.dependencies.DependencyLookup;
import dev.capstan.engine.dependencies.ObjectDependency;
import dev.capstan.engine.pipeline.Acting;
import dev.capstan.helm.release.ReleaseStorage;
import dev.capstan.kube.SecretReader;
import dev.capstan.kube.SecretWriter;
import java.time.Clock;
import java.util.function.Function;

/**
 * Who acts for a HelmRelease in one reconcile or deletion: applies, prunes and reads its objects'
 * health, and reads and writes its release records. With {@code spec.serviceAccountName} (or the
 * engine's default service account) that is a client impersonating the service account, as for
 * Kustomizations, so a tenant cannot make the engine do what its service account may not.
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
   */
  record Actor(
      Acting acting,
      ReleaseStore store,
      CrdLookup crds,
      DependencyReads dependencies,
      ReleaseClaims claims) {}

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

  Actor actorFor(HelmRelease release);

  /**
   * Acting as {@code actingFor} chooses for each HelmRelease, its release records kept with that
   * acting's client; its dependencies read by {@code dependencies}, the engine's own reads, as Flux
   * reads them with the controller's rights rather than the release's service account.
   */
  static ReleaseActors of(
      Function<HelmRelease, Acting> actingFor, DependencyReads dependencies, Clock clock) {
    return release -> {
      Acting acting = actingFor.apply(release);
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
          ReleaseClaims.of(acting.client()));
    };
  }
}
