package dev.capstan.engine.helmrelease;

import dev.capstan.api.helm.HelmRelease;
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
   */
  record Actor(Acting acting, ReleaseStore store) {}

  Actor actorFor(HelmRelease release);

  /** The same actor for every HelmRelease (tests, or an engine without tenancy). */
  static ReleaseActors fixed(Acting acting, ReleaseStore store) {
    Actor actor = new Actor(acting, store);
    return release -> actor;
  }

  /**
   * Acting as {@code actingFor} chooses for each HelmRelease, its release records kept with that
   * acting's client.
   */
  static ReleaseActors of(Function<HelmRelease, Acting> actingFor, Clock clock) {
    return release -> {
      Acting acting = actingFor.apply(release);
      ReleaseStorage storage =
          new ReleaseStorage(
              new SecretReader(acting.client()), new SecretWriter(acting.client()), clock);
      return new Actor(acting, ReleaseStore.of(storage));
    };
  }
}
