package dev.capstan.ui;

import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.engine.shard.ReplicaLeases;
import dev.capstan.engine.shard.ShardOptions;
import dev.capstan.sharding.SlotClaims;
import dev.capstan.sharding.SlotRange;
import dev.capstan.sharding.SlotSpace;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * One group of replicas (one Deployment of {@code capstan run --shards}) as its Leases say: each
 * replica's Lease and claimed slots, and what the shard map could not say.
 *
 * @param shardMap the name of the group's shard map Lease; empty when there is none (yet)
 * @param key what places a Kustomization in a slot, as the map says ({@code uid}, {@code
 *     namespace}); empty without a map
 * @param slots how many slots the hash space has; 0 without a readable map
 * @param unclaimed slots no replica claims in the map
 * @param problems what of the map could not be read, said without quoting it
 */
record ReplicaGroup(
    String namespace,
    String group,
    String shardMap,
    String key,
    int slots,
    int unclaimed,
    List<Replica> replicas,
    List<String> problems) {

  /** Longest replica name shown: a DNS name as the engine writes it; longer ones are cut. */
  static final int MAX_NAME = 253;

  ReplicaGroup {
    replicas = List.copyOf(replicas);
    problems = List.copyOf(problems);
  }

  /** Whether a replica's Lease is live, as this machine's clock reads its renew time. */
  enum LeaseState {
    LIVE,
    EXPIRED,
    /** The shard map names it, but it has no Lease (deleted, or never made). */
    NO_LEASE
  }

  /**
   * One replica.
   *
   * @param holder the Lease's {@code spec.holderIdentity}
   * @param process the process that renews it (a random id per start), from the Lease's annotation
   * @param renewTime the Lease's {@code spec.renewTime}, RFC 3339, or empty
   * @param ranges its claimed slot ranges and their hash ranges, as the shard map says
   * @param kustomizations how many Kustomizations carry its owner label (of this group)
   */
  record Replica(
      String name,
      String lease,
      String holder,
      String process,
      String renewTime,
      long leaseDurationSeconds,
      LeaseState state,
      int slots,
      List<SlotSpan> ranges,
      long kustomizations) {
    Replica {
      ranges = List.copyOf(ranges);
    }
  }

  /** A run of slots ({@code 0-341}, end exclusive as the map writes it) and its hash bounds. */
  record SlotSpan(String slots, String fromHash, String toHash) {}

  /** Gathers a group's Leases as they are listed, then makes the group. */
  static final class Builder {
    private final String namespace;
    private final String group;
    private final Map<String, Lease> leases = new TreeMap<>();
    private final Map<String, List<SlotRange>> claims = new TreeMap<>();
    private final List<String> problems = new ArrayList<>();
    private String shardMap = "";
    private String key = "";
    private SlotSpace space;

    Builder(String namespace, String group) {
      this.namespace = namespace;
      this.group = group;
    }

    void replicaLease(Lease lease) {
      String name = lease.getMetadata().getName();
      leases.put(name.substring(ShardOptions.REPLICA_LEASE_PREFIX.length()), lease);
    }

    void map(Lease lease) {
      shardMap = lease.getMetadata().getName();
      Map<String, String> annotations =
          Optional.ofNullable(lease.getMetadata().getAnnotations()).orElse(Map.of());
      key = cut(annotations.getOrDefault(ShardOptions.KEY_ANNOTATION, ""), 20);
      space = space(annotations.get(ShardOptions.SLOTS_ANNOTATION));
      if (space == null) {
        problems.add("the shard map " + shardMap + " names no slot count from 1 to 16 bits");
        return;
      }
      readClaims(annotations.getOrDefault(ShardOptions.CLAIMS_ANNOTATION, ""));
    }

    private static SlotSpace space(String bits) {
      try {
        return bits == null ? null : new SlotSpace(Integer.parseInt(bits.trim()));
      } catch (IllegalArgumentException e) {
        return null;
      }
    }

    /** Read as the engine reads it ({@link SlotClaims#readAll}), so the page shows its belief. */
    private void readClaims(String text) {
      SlotClaims.Claims read = SlotClaims.readAll(text, space);
      claims.putAll(read.byReplica());
      if (read.unnamed() > 0) {
        problems.add("the shard map " + shardMap + " has a claim that names no replica");
      }
      // said without echoing the text
      read.unreadable()
          .forEach(
              r ->
                  problems.add(
                      "the shard map "
                          + shardMap
                          + " has a claim that cannot be read, which the engine takes for every"
                          + " slot until its replica rewrites it"));
    }

    ReplicaGroup build(Collection<Kustomization> kustomizations, Instant now) {
      Map<String, Replica> replicas = new TreeMap<>();
      leases.forEach(
          (name, lease) -> replicas.put(name, replica(name, lease, kustomizations, now)));
      claims.keySet().stream()
          .filter(name -> !leases.containsKey(name))
          .forEach(name -> replicas.put(name, replica(name, null, kustomizations, now)));
      int claimed = replicas.values().stream().mapToInt(Replica::slots).sum();
      int count = space == null ? 0 : space.count();
      return new ReplicaGroup(
          namespace,
          group,
          shardMap,
          key,
          count,
          Math.max(0, count - claimed),
          List.copyOf(replicas.values()),
          problems);
    }

    private Replica replica(
        String name, Lease lease, Collection<Kustomization> kustomizations, Instant now) {
      List<SlotRange> ranges = claims.getOrDefault(name, List.of());
      List<SlotSpan> spans =
          ranges.stream()
              .map(
                  r ->
                      new SlotSpan(
                          r.from() + "-" + r.to(), space.bound(r.from()), space.bound(r.to())))
              .toList();
      int slots = ranges.stream().mapToInt(SlotRange::size).sum();
      long owned = owned(name, kustomizations);
      if (lease == null) {
        return new Replica(
            cut(name, MAX_NAME), "", "", "", "", 0, LeaseState.NO_LEASE, slots, spans, owned);
      }
      ZonedDateTime renewed = lease.getSpec() == null ? null : lease.getSpec().getRenewTime();
      long duration = ReplicaLeases.durationSeconds(lease);
      boolean live = renewed != null && renewed.toInstant().plusSeconds(duration).isAfter(now);
      Map<String, String> annotations =
          Optional.ofNullable(lease.getMetadata().getAnnotations()).orElse(Map.of());
      return new Replica(
          cut(name, MAX_NAME),
          lease.getMetadata().getName(),
          cut(lease.getSpec() == null ? "" : lease.getSpec().getHolderIdentity(), MAX_NAME),
          cut(annotations.getOrDefault(ShardOptions.PROCESS_ANNOTATION, ""), 64),
          renewed == null ? "" : DateTimeFormatter.ISO_INSTANT.format(renewed.toInstant()),
          duration,
          live ? LeaseState.LIVE : LeaseState.EXPIRED,
          slots,
          spans,
          owned);
    }

    /** Kustomizations labelled this replica's, of this group (or of no group named). */
    private long owned(String replica, Collection<Kustomization> kustomizations) {
      String ownGroup = namespace + "/" + group;
      return kustomizations.stream()
          .filter(
              ks -> {
                Map<String, String> labels = ks.getMetadata().getLabels();
                Map<String, String> annotations = ks.getMetadata().getAnnotations();
                String ownerGroup =
                    annotations == null ? null : annotations.get(ShardOptions.GROUP_LABEL);
                return labels != null
                    && replica.equals(labels.get(ShardOptions.REPLICA_LABEL))
                    && (ownerGroup == null || ownGroup.equals(ownerGroup));
              })
          .count();
    }

    private static String cut(String text, int max) {
      if (text == null) {
        return "";
      }
      return text.length() <= max ? text : text.substring(0, max) + "…";
    }
  }
}
