package dev.capstan.engine.shard;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The watch on a group's Leases: the replicas' own (by their group label) and the shared map (by
 * its name), both told to one {@link LeaseEvents}. Only a shortcut: the membership's timed rounds
 * read the same Leases, so a watch that cannot start or is cut off delays a handover by at most a
 * renew period and never decides one.
 */
final class GroupWatch implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(GroupWatch.class);

  private final List<SharedIndexInformer<Lease>> informers = new ArrayList<>();

  /** Starts watching; returns at once (the first list arrives on the informers' threads). */
  GroupWatch(
      KubernetesClient client, String namespace, String group, String mapName, LeaseEvents events) {
    var leases = client.leases().inNamespace(namespace);
    informers.add(leases.withLabel(ReplicaLeases.GROUP_LABEL, group).runnableInformer(0));
    informers.add(leases.withName(mapName).runnableInformer(0));
    for (SharedIndexInformer<Lease> informer : informers) {
      informer.addEventHandler(events);
      informer.exceptionHandler(
          (started, error) -> {
            LOG.debug("watch of the group's Leases failed, retrying: {}", error.getMessage());
            return true;
          });
      informer.start();
    }
  }

  @Override
  public void close() {
    informers.forEach(SharedIndexInformer::close);
  }
}
