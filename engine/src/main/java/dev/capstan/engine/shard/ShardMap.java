package dev.capstan.engine.shard;

import dev.capstan.sharding.SlotClaims;
import dev.capstan.sharding.SlotRange;
import dev.capstan.sharding.SlotSpace;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * Which replica claims which slots, in one object of the group (a Lease's annotation, since
 * replicas may already write Leases), changed only by compare-and-swap on its resourceVersion: of
 * two replicas that both try to claim a slot from the same version, one write fails, so a slot
 * never has two owners, however the replicas' views of each other differ.
 */
final class ShardMap {
  static final String WRITTEN = "shards.capstan.dev/written";

  /** The map as read: its version (empty when it does not exist yet) and each replica's claim. */
  record Read(Optional<String> version, Map<String, List<SlotRange>> claims) {
    Read {
      claims = Map.copyOf(claims);
    }
  }

  private final KubernetesClient client;
  private final String namespace;
  private final String name;
  private final SlotSpace space;
  private final String key;

  ShardMap(KubernetesClient client, String namespace, String group, SlotSpace space, String key) {
    this.client = client;
    this.namespace = namespace;
    this.name = ShardOptions.SHARD_MAP_PREFIX + group;
    this.space = space;
    this.key = key;
  }

  /** The name of the map's Lease. */
  String name() {
    return name;
  }

  Read read() {
    Lease lease = client.leases().inNamespace(namespace).withName(name).get();
    if (lease == null) {
      return new Read(Optional.empty(), Map.of());
    }
    Map<String, String> annotations =
        Optional.ofNullable(lease.getMetadata().getAnnotations()).orElse(Map.of());
    if (!String.valueOf(space.bits()).equals(annotations.get(ShardOptions.SLOTS_ANNOTATION))
        || !key.equals(annotations.get(ShardOptions.KEY_ANNOTATION))) {
      throw new IllegalStateException(
          "Lease "
              + namespace
              + "/"
              + name
              + " shares the work by another --shard-by or slot count than this replica; all"
              + " replicas of a group must use the same (delete the Lease once none of the"
              + " old replicas runs)");
    }
    return new Read(
        Optional.of(lease.getMetadata().getResourceVersion()),
        parse(annotations.getOrDefault(ShardOptions.CLAIMS_ANNOTATION, "")));
  }

  /**
   * Replaces the claims if the map is still at {@code read}'s version; false when it moved on.
   * Every write changes the map (who wrote it, when), so that a write that changes no claim still
   * conflicts with any other made from the same version.
   */
  boolean write(Read read, Map<String, List<SlotRange>> claims, String writer) {
    Lease lease =
        new LeaseBuilder()
            .withNewMetadata()
            .withName(name)
            .withNamespace(namespace)
            .withResourceVersion(read.version().orElse(null))
            .addToAnnotations(ShardOptions.CLAIMS_ANNOTATION, format(claims))
            .addToAnnotations(ShardOptions.SLOTS_ANNOTATION, String.valueOf(space.bits()))
            .addToAnnotations(ShardOptions.KEY_ANNOTATION, key)
            .addToAnnotations(WRITTEN, writer + " " + UUID.randomUUID())
            .endMetadata()
            .withNewSpec()
            .endSpec()
            .build();
    try {
      if (read.version().isEmpty()) {
        client.leases().inNamespace(namespace).resource(lease).create();
      } else {
        client.leases().inNamespace(namespace).resource(lease).update();
      }
      return true;
    } catch (KubernetesClientException e) {
      if (e.getCode() == 409) {
        return false;
      }
      throw e;
    }
  }

  /** As every reader of a map reads it: a claim that cannot be read claims every slot. */
  private Map<String, List<SlotRange>> parse(String text) {
    return SlotClaims.readAll(text, space).byReplica();
  }

  private static String format(Map<String, List<SlotRange>> claims) {
    return new TreeMap<>(claims)
        .entrySet().stream()
            .filter(e -> !e.getValue().isEmpty())
            .map(e -> e.getKey() + "=" + SlotClaims.write(e.getValue()))
            .collect(Collectors.joining(";"));
  }
}
