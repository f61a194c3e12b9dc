package dev.capstan.ui;

import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.engine.shard.ShardOptions;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What the Replicas page shows: each group of a sharded engine as its Leases say, the replicas with
 * their Lease, their claimed slots and the Kustomizations labelled theirs. Built from the Leases
 * and Kustomizations the view watches; the label, annotation and Lease names are the engine's own
 * ({@link ShardOptions}), so that the view reads what the engine writes.
 *
 * @param sharded whether any replica Lease or shard map was seen
 * @param note what the page says above the groups: why there is nothing (no sharding) or how
 *     liveness is judged here
 * @param problems why the Leases could not be listed, if they could not
 * @param recheckAt when the earliest live replica expires unless renewed (RFC 3339), or empty: a
 *     replica that dies sends no change, so the page asks again then
 */
record Replicas(
    boolean sharded,
    String note,
    List<ReplicaGroup> groups,
    List<String> problems,
    String recheckAt) {

  static final String UNSHARDED =
      "The engine does not run sharded here: no replica Lease ("
          + ShardOptions.REPLICA_LEASE_PREFIX
          + "*) or shard map ("
          + ShardOptions.SHARD_MAP_PREFIX
          + "*) in the namespaces in view. A single engine, or one chosen by leader election,"
          + " owns every Kustomization.";

  /** Said instead when no shard Lease is seen but the view may just not see them. */
  static final String CANNOT_TELL =
      "Cannot tell whether the engine runs sharded here: no replica Lease or shard map is seen,"
          + " but ";

  static final String LIVENESS =
      "Live: the Lease's renew time plus its duration is still ahead by this machine's clock"
          + " (the replicas themselves judge by seeing a Lease change, so a skewed clock here can"
          + " show a renewed replica expired).";

  Replicas {
    groups = List.copyOf(groups);
    problems = List.copyOf(problems);
  }

  static Replicas of(
      Collection<Lease> leases,
      Collection<Kustomization> kustomizations,
      List<String> problems,
      boolean synced,
      Instant now) {
    Map<String, ReplicaGroup.Builder> groups = new TreeMap<>();
    for (Lease lease : leases) {
      String namespace = lease.getMetadata().getNamespace();
      String name = lease.getMetadata().getName();
      Optional<String> group = groupOfReplica(lease);
      if (name.startsWith(ShardOptions.REPLICA_LEASE_PREFIX) && group.isPresent()) {
        groups
            .computeIfAbsent(namespace + "/" + group.get(), k -> builder(namespace, group.get()))
            .replicaLease(lease);
      } else if (name.startsWith(ShardOptions.SHARD_MAP_PREFIX)) {
        String mapGroup = name.substring(ShardOptions.SHARD_MAP_PREFIX.length());
        groups
            .computeIfAbsent(namespace + "/" + mapGroup, k -> builder(namespace, mapGroup))
            .map(lease);
      }
    }
    List<ReplicaGroup> built = new ArrayList<>();
    groups.values().forEach(b -> built.add(b.build(kustomizations, now)));
    boolean sharded = !built.isEmpty();
    String note = sharded ? LIVENESS : unsharded(kustomizations, problems, synced);
    return new Replicas(sharded, note, built, problems, recheckAt(built));
  }

  /** Not sharded, unless the view may miss the Leases or the Kustomizations say otherwise. */
  private static String unsharded(
      Collection<Kustomization> kustomizations, List<String> problems, boolean synced) {
    if (!problems.isEmpty()) {
      return CANNOT_TELL + "the Leases of some namespaces in view cannot be listed.";
    }
    if (!synced) {
      return CANNOT_TELL + "the Leases have not all been listed yet.";
    }
    boolean labelled =
        kustomizations.stream()
            .map(ks -> ks.getMetadata().getLabels())
            .anyMatch(l -> l != null && l.containsKey(ShardOptions.REPLICA_LABEL));
    if (labelled) {
      return CANNOT_TELL
          + "Kustomizations in view carry a replica's label (their replicas' Leases may be in"
          + " namespaces not in view).";
    }
    return UNSHARDED;
  }

  /** The earliest instant a live replica turns expired, as this machine's clock reads it. */
  private static String recheckAt(List<ReplicaGroup> groups) {
    return groups.stream()
        .flatMap(g -> g.replicas().stream())
        .filter(r -> r.state() == ReplicaGroup.LeaseState.LIVE)
        .map(r -> Instant.parse(r.renewTime()).plusSeconds(r.leaseDurationSeconds()))
        .min(Instant::compareTo)
        .map(Instant::toString)
        .orElse("");
  }

  private static ReplicaGroup.Builder builder(String namespace, String group) {
    return new ReplicaGroup.Builder(namespace, group);
  }

  private static Optional<String> groupOfReplica(Lease lease) {
    Map<String, String> labels = lease.getMetadata().getLabels();
    return Optional.ofNullable(labels == null ? null : labels.get(ShardOptions.GROUP_LABEL))
        .filter(g -> !g.isEmpty());
  }
}
