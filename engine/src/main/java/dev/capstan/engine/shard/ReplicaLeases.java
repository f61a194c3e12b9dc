package dev.capstan.engine.shard;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.List;

/**
 * The Leases that say which replicas of a group are alive: one per replica, named after it, renewed
 * by it alone. What a Lease says is judged by {@link dev.capstan.sharding.Liveness} from its
 * resourceVersion changing, never from the renew time written in it.
 */
final class ReplicaLeases {
  static final String GROUP_LABEL = "shards.capstan.dev/group";
  static final String PREFIX = "capstan-replica-";

  /** A replica's Lease as read: its holder, what changes on each renewal, and its duration. */
  record Seen(String replica, String version, long durationSeconds) {}

  private final KubernetesClient client;
  private final String namespace;
  private final String group;

  ReplicaLeases(KubernetesClient client, String namespace, String group) {
    this.client = client;
    this.namespace = namespace;
    this.group = group;
  }

  /** The group's replica Leases. */
  List<Seen> list() {
    return client
        .leases()
        .inNamespace(namespace)
        .withLabel(GROUP_LABEL, group)
        .list()
        .getItems()
        .stream()
        .filter(l -> l.getSpec() != null && l.getSpec().getHolderIdentity() != null)
        .map(
            l ->
                new Seen(
                    l.getSpec().getHolderIdentity(),
                    l.getMetadata().getResourceVersion(),
                    l.getSpec().getLeaseDurationSeconds() == null
                        ? 0
                        : l.getSpec().getLeaseDurationSeconds()))
        .toList();
  }

  /** Renews (or creates) this replica's Lease; false when the API server did not take it. */
  boolean renew(String replica, long durationSeconds, Instant now) {
    Lease lease =
        new LeaseBuilder()
            .withNewMetadata()
            .withName(PREFIX + replica)
            .withNamespace(namespace)
            .addToLabels(GROUP_LABEL, group)
            .endMetadata()
            .withNewSpec()
            .withHolderIdentity(replica)
            .withLeaseDurationSeconds((int) durationSeconds)
            .withRenewTime(ZonedDateTime.ofInstant(now, ZoneOffset.UTC))
            .endSpec()
            .build();
    try {
      client.leases().inNamespace(namespace).resource(lease).forceConflicts().serverSideApply();
      return true;
    } catch (KubernetesClientException e) {
      return false;
    }
  }

  /** Gives this replica's Lease up: the others count it gone at once. */
  void delete(String replica) {
    try {
      client.leases().inNamespace(namespace).withName(PREFIX + replica).delete();
    } catch (KubernetesClientException e) {
      // it expires by itself
    }
  }
}
