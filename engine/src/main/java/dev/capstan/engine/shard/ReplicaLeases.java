package dev.capstan.engine.shard;

import dev.capstan.sharding.Liveness;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.LongSupplier;

/**
 * The Leases that say which replicas of a group are alive: one per replica, named after it, renewed
 * by it alone. What a Lease says is judged by {@link dev.capstan.sharding.Liveness} from its
 * resourceVersion changing, never from the renew time written in it.
 */
public final class ReplicaLeases {

  /** Which process renews a replica's Lease: one per start, so two of one name tell apart. */

  /** What came of a renewal. */
  enum Renewal {
    RENEWED,
    /** The API server did not take it (unreachable, or a concurrent write). */
    FAILED,
    /** Another live process renews a Lease of this replica name. */
    NAME_IN_USE
  }

  /** A replica's Lease as read: its holder, what changes on each renewal, and its duration. */
  record Seen(String replica, String version, long durationSeconds) {}

  private final KubernetesClient client;
  private final String namespace;
  private final String group;
  private final String process = UUID.randomUUID().toString();
  private final Liveness others;

  ReplicaLeases(KubernetesClient client, String namespace, String group, LongSupplier nanoClock) {
    this.client = client;
    this.namespace = namespace;
    this.group = group;
    this.others = new Liveness(nanoClock);
  }

  /** Where the Leases live. */
  String namespace() {
    return namespace;
  }

  /** The group's replica Leases. */
  List<Seen> list() {
    return client
        .leases()
        .inNamespace(namespace)
        .withLabel(ShardOptions.GROUP_LABEL, group)
        .list()
        .getItems()
        .stream()
        .map(ReplicaLeases::seen)
        .flatMap(Optional::stream)
        .toList();
  }

  /** What a replica's Lease says of its holder's liveness; empty for one that names no holder. */
  static Optional<Seen> seen(Lease lease) {
    if (lease.getSpec() == null || lease.getSpec().getHolderIdentity() == null) {
      return Optional.empty();
    }
    return Optional.of(
        new Seen(
            lease.getSpec().getHolderIdentity(),
            lease.getMetadata().getResourceVersion(),
            durationSeconds(lease)));
  }

  /**
   * Renews (or creates) this replica's Lease, by compare-and-swap on the version read just before:
   * a Lease of this name that another process renews is not taken, so two processes given the same
   * replica name never both hold it. A Lease another process left behind (it crashed) is taken over
   * once it has not changed for its whole duration, as seen here.
   */
  Renewal renew(String replica, long durationSeconds, Instant now) {
    try {
      Lease current =
          client
              .leases()
              .inNamespace(namespace)
              .withName(ShardOptions.REPLICA_LEASE_PREFIX + replica)
              .get();
      if (current != null
          && !process.equals(annotation(current, ShardOptions.PROCESS_ANNOTATION))) {
        others.observe(
            replica, current.getMetadata().getResourceVersion(), durationSeconds(current));
        if (others.live().contains(replica)) {
          return Renewal.NAME_IN_USE;
        }
      }
      others.forget(replica);
      Lease lease = lease(replica, durationSeconds, now, current);
      if (current == null) {
        client.leases().inNamespace(namespace).resource(lease).create();
      } else {
        client.leases().inNamespace(namespace).resource(lease).update();
      }
      return Renewal.RENEWED;
    } catch (KubernetesClientException e) {
      // 409: another process wrote it since the read; the next round reads who
      return Renewal.FAILED;
    }
  }

  private Lease lease(String replica, long durationSeconds, Instant now, Lease current) {
    return new LeaseBuilder()
        .withNewMetadata()
        .withName(ShardOptions.REPLICA_LEASE_PREFIX + replica)
        .withNamespace(namespace)
        .withResourceVersion(current == null ? null : current.getMetadata().getResourceVersion())
        .addToLabels(ShardOptions.GROUP_LABEL, group)
        .addToAnnotations(ShardOptions.PROCESS_ANNOTATION, process)
        .endMetadata()
        .withNewSpec()
        .withHolderIdentity(replica)
        .withLeaseDurationSeconds((int) durationSeconds)
        .withRenewTime(ZonedDateTime.ofInstant(now, ZoneOffset.UTC))
        .endSpec()
        .build();
  }

  private static String annotation(Lease lease, String name) {
    Map<String, String> annotations = lease.getMetadata().getAnnotations();
    return annotations == null ? null : annotations.get(name);
  }

  /** A Lease's {@code spec.leaseDurationSeconds}, 0 when it names none. */
  public static long durationSeconds(Lease lease) {
    return lease.getSpec() == null || lease.getSpec().getLeaseDurationSeconds() == null
        ? 0
        : lease.getSpec().getLeaseDurationSeconds();
  }

  /** The Lease of {@code replica} as the API server has it, if it is there and can be read. */
  Optional<Lease> read(String replica) {
    try {
      return Optional.ofNullable(
          client
              .leases()
              .inNamespace(namespace)
              .withName(ShardOptions.REPLICA_LEASE_PREFIX + replica)
              .get());
    } catch (KubernetesClientException e) {
      return Optional.empty();
    }
  }

  /** Gives this replica's Lease up: the others count it gone at once. */
  void delete(String replica) {
    try {
      client
          .leases()
          .inNamespace(namespace)
          .withName(ShardOptions.REPLICA_LEASE_PREFIX + replica)
          .delete();
    } catch (KubernetesClientException e) {
      // it expires by itself
    }
  }
}
