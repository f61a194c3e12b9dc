package dev.capstan.engine.helmrelease;

import dev.capstan.engine.kustomization.HealthTracking.RemoteCluster;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The Capabilities a release's chart is rendered with: those of the cluster it is installed in, as
 * Helm's install action asks the cluster of its kubeconfig. The engine's own cluster's come from
 * {@code local}; a remote cluster's are asked of its client and kept by the client's id (a remote
 * whose kubeconfig changed gets a new client, so a new id), at most {@link #MAX_REMOTES} of them.
 */
final class ReleaseCapabilities {
  /**
   * As many as remote clients are kept for HelmReleases; the least recently used is asked again.
   */
  static final int MAX_REMOTES = 100;

  private final Capabilities local;
  private final Function<RemoteCluster, Capabilities> ask;
  private final Map<String, Capabilities> remotes = new LinkedHashMap<>(16, 0.75f, true);

  /**
   * @param local the engine's cluster's
   * @param ask a remote cluster's, asked when it is first rendered for
   */
  ReleaseCapabilities(Capabilities local, Function<RemoteCluster, Capabilities> ask) {
    this.local = local;
    this.ask = ask;
  }

  /** The Capabilities of {@code cluster}; empty: the engine's own. */
  Capabilities of(Optional<RemoteCluster> cluster) {
    if (cluster.isEmpty()) {
      return local;
    }
    RemoteCluster remote = cluster.get();
    synchronized (remotes) {
      Capabilities kept = remotes.computeIfAbsent(remote.id(), id -> ask.apply(remote));
      var eldest = remotes.entrySet().iterator();
      while (remotes.size() > MAX_REMOTES && eldest.hasNext()) {
        eldest.next();
        eldest.remove();
      }
      return kept;
    }
  }
}
