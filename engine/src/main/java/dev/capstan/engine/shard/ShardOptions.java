package dev.capstan.engine.shard;

import dev.capstan.sharding.ShardKey;
import dev.capstan.sharding.SlotSpace;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How replicas of one engine share the Kustomizations.
 *
 * @param replicaName this replica's name (its Lease's holder): by default the pod's name
 * @param group the replicas sharing the work: those whose Leases carry the same group label (one
 *     Deployment). A replica leaves alone a Kustomization that a live replica of another group owns
 *     (docs/sharding.md)
 * @param leaseNamespace where the Leases live: by default the engine's own namespace
 * @param key what places a Kustomization in a slot: its uid (even spread) or its namespace
 * @param leaseDuration how long a replica's Lease lives without renewal (10 s): the others take a
 *     killed replica's slots this long after they last saw its Lease change. A replica stops
 *     writing once two thirds of it passed without a successful renewal ({@link #writeDeadline})
 * @param renewPeriod how often a replica renews its Lease and looks at the others (2 s); at most a
 *     third of the Lease. Each round's duration counts too (rounds run with a fixed delay); at the
 *     defaults, two quick rounds may fail in a row before the deadline (docs/sharding.md)
 * @param space the slots of the hash space
 */
public record ShardOptions(
    String replicaName,
    String group,
    Optional<String> leaseNamespace,
    ShardKey key,
    Duration leaseDuration,
    Duration renewPeriod,
    SlotSpace space) {

  /**
   * The label the owner writes on each Kustomization it reconciles: its replica's name (the REPLICA
   * column of {@code -o wide}).
   */
  public static final String REPLICA_LABEL = "shards.capstan.dev/replica";

  /**
   * The label of a replica's Lease naming its group, and the annotation beside {@link
   * #REPLICA_LABEL} on a Kustomization naming the owner's group ({@code <Lease
   * namespace>/<group>}).
   */
  public static final String GROUP_LABEL = "shards.capstan.dev/group";

  /** A replica's Lease is this and the replica's name. */
  public static final String REPLICA_LEASE_PREFIX = "capstan-replica-";

  /** A group's shard map is the Lease of this and the group's name. */
  public static final String SHARD_MAP_PREFIX = "capstan-shards-";

  /** The shard map's annotation listing each replica's claimed slot ranges. */
  public static final String CLAIMS_ANNOTATION = "shards.capstan.dev/claims";

  /** The shard map's annotation of the slot space's bits (10: 1,024 slots). */
  public static final String SLOTS_ANNOTATION = "shards.capstan.dev/slots";

  /** The shard map's annotation of the key field ({@code uid} or {@code namespace}). */
  public static final String KEY_ANNOTATION = "shards.capstan.dev/key";

  /** The annotation of a replica's Lease naming the process that renews it (one per start). */
  public static final String PROCESS_ANNOTATION = "shards.capstan.dev/process";

  /** How long a replica's Lease lives without renewal unless told otherwise. */
  public static final Duration DEFAULT_LEASE_DURATION = Duration.ofSeconds(10);

  public ShardOptions {
    Objects.requireNonNull(replicaName, "replicaName");
    // it names a Lease, a label value and an entry of the shard map (whose separators it must
    // not contain)
    if (!replicaName.matches("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?")) {
      throw new IllegalArgumentException(
          "the replica name must be a DNS label (lower-case letters, digits and '-', at most 63)");
    }
    group = group == null || group.isBlank() ? "capstan" : group;
    leaseNamespace = leaseNamespace == null ? Optional.empty() : leaseNamespace;
    key = key == null ? ShardKey.UID : key;
    leaseDuration = leaseDuration == null ? DEFAULT_LEASE_DURATION : leaseDuration;
    renewPeriod = renewPeriod == null ? Duration.ofSeconds(2) : renewPeriod;
    space = space == null ? SlotSpace.DEFAULT : space;
    if (renewPeriod.compareTo(leaseDuration.dividedBy(3)) > 0) {
      throw new IllegalArgumentException("the renew period must be at most a third of the Lease");
    }
  }

  /** The defaults for a replica of the given name. */
  public static ShardOptions of(String replicaName) {
    return new ShardOptions(replicaName, null, null, null, null, null, null);
  }

  /**
   * How long after its last renewal this replica still writes: two thirds of the Lease (6.67 s by
   * default). The last third is the margin between this replica's last write and the earliest
   * moment another may judge its Lease expired (docs/sharding.md, "The margin"): it holds the
   * requests of a stage that began just before the deadline. Two thirds rather than less, because
   * the rounds run with a fixed delay and stamp the gate with their start: slow rounds on a loaded
   * machine eat into the deadline without any renewal failing.
   */
  public Duration writeDeadline() {
    return leaseDuration.multipliedBy(2).dividedBy(3);
  }
}
