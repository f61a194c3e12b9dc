package dev.capstan.engine.shard;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
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
  // A failure or two is an API server's restart; more say the watch is not working (its RBAC, a
  // proxy cutting watches): told once at WARN, as the handovers are then slower
  private static final int FAILURES_BEFORE_WARNING = 3;

  private final List<SharedIndexInformer<Lease>> informers = new ArrayList<>();
  private final AtomicInteger failures = new AtomicInteger();

  /** Starts watching; returns at once (the first list arrives on the informers' threads). */
  GroupWatch(
      KubernetesClient client, String namespace, String group, String mapName, LeaseEvents events) {
    var leases = client.leases().inNamespace(namespace);
    informers.add(leases.withLabel(ShardOptions.GROUP_LABEL, group).runnableInformer(0));
    informers.add(leases.withName(mapName).runnableInformer(0));
    for (SharedIndexInformer<Lease> informer : informers) {
      informer.addEventHandler(events);
      informer.exceptionHandler(
          (started, error) -> {
            failed(error);
            return true;
          });
      informer.start();
    }
  }

  private void failed(Throwable error) {
    if (failures.incrementAndGet() == FAILURES_BEFORE_WARNING) {
      LOG.warn(
          "the watch of the group's Leases keeps failing ({}); it retries, and until it works a"
              + " handover waits for the next timed round",
          error.getMessage());
    } else {
      LOG.debug("watch of the group's Leases failed, retrying: {}", error.getMessage());
    }
  }

  @Override
  public void close() {
    informers.forEach(SharedIndexInformer::close);
  }
}
