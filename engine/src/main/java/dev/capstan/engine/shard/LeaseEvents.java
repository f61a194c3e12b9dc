package dev.capstan.engine.shard;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import java.util.Map;
import java.util.Objects;

/**
 * What the watch on the group's Leases reports to the membership: another replica's Lease renewed
 * (evidence of life, judged as a round's own read), and the changes a round should act on at once
 * rather than at its next timed turn: a replica's Lease created or deleted (a join, a graceful
 * stop) and the shared map written by another replica (slots released or claimed). This replica's
 * own writes are not reported: they need no round.
 */
final class LeaseEvents implements ResourceEventHandler<Lease> {
  /** Told on the informer's thread; the membership moves the work onto its own thread. */
  interface Listener {
    /** Another replica's Lease was seen at a new version. */
    void renewed(ReplicaLeases.Seen lease);

    /** Something a round acts on changed. */
    void changed();
  }

  private final String self;
  private final String mapName;
  private final Listener listener;

  LeaseEvents(String self, String mapName, Listener listener) {
    this.self = self;
    this.mapName = mapName;
    this.listener = listener;
  }

  @Override
  public void onAdd(Lease lease) {
    if (isMap(lease)) {
      mapChanged(lease);
      return;
    }
    ReplicaLeases.seen(lease)
        .filter(this::other)
        .ifPresent(
            seen -> {
              listener.renewed(seen);
              listener.changed();
            });
  }

  @Override
  public void onUpdate(Lease before, Lease after) {
    if (Objects.equals(version(before), version(after))) {
      return; // a resync or a re-list: nothing happened
    }
    if (isMap(after)) {
      mapChanged(after);
      return;
    }
    ReplicaLeases.seen(after).filter(this::other).ifPresent(listener::renewed);
  }

  @Override
  public void onDelete(Lease lease, boolean finalStateUnknown) {
    if (isMap(lease)) {
      listener.changed();
      return;
    }
    if (ReplicaLeases.seen(lease).filter(this::other).isPresent()) {
      listener.changed();
    }
  }

  private void mapChanged(Lease map) {
    Map<String, String> annotations = map.getMetadata().getAnnotations();
    String written = annotations == null ? null : annotations.get(ShardMap.WRITTEN);
    // "<writer> <random>": what this replica wrote it already acted on
    if (written == null || !written.startsWith(self + " ")) {
      listener.changed();
    }
  }

  private boolean other(ReplicaLeases.Seen lease) {
    return !self.equals(lease.replica());
  }

  private boolean isMap(Lease lease) {
    return mapName.equals(lease.getMetadata().getName());
  }

  private static String version(Lease lease) {
    return lease == null ? null : lease.getMetadata().getResourceVersion();
  }
}
