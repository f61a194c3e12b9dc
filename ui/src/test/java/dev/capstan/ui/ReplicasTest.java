package dev.capstan.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.ui.ReplicaGroup.LeaseState;
import dev.capstan.ui.ReplicaGroup.Replica;
import dev.capstan.ui.ReplicaGroup.SlotSpan;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReplicasTest {
  private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");

  private static Lease lease(String yaml) {
    return Serialization.unmarshal(yaml, Lease.class);
  }

  /** A replica's Lease as the engine writes it: group label, process annotation, holder. */
  private static Lease replicaLease(String replica, String renewTime) {
    return lease(
        """
        apiVersion: coordination.k8s.io/v1
        kind: Lease
        metadata:
          name: capstan-replica-%s
          namespace: capstan-system
          labels: {shards.capstan.dev/group: capstan}
          annotations: {shards.capstan.dev/process: 0f5c-%s}
        spec: {holderIdentity: %s, leaseDurationSeconds: 10, renewTime: "%s"}
        """
            .formatted(replica, replica, replica, renewTime));
  }

  private static Lease shardMap(String claims) {
    return lease(
        """
        apiVersion: coordination.k8s.io/v1
        kind: Lease
        metadata:
          name: capstan-shards-capstan
          namespace: capstan-system
          annotations:
            shards.capstan.dev/claims: "%s"
            shards.capstan.dev/slots: "10"
            shards.capstan.dev/key: uid
            shards.capstan.dev/written: "capstan-0 5d1e"
        spec: {}
        """
            .formatted(claims));
  }

  private static Kustomization owned(String name, String replica, String group) {
    return UiFixtures.ks(
        """
        apiVersion: kustomize.capstan.dev/v1
        kind: Kustomization
        metadata:
          name: %s
          namespace: team
          labels: {shards.capstan.dev/replica: %s}
          annotations: {shards.capstan.dev/group: %s}
        spec: {sourceRef: {kind: GitRepository, name: repo}, path: ./, interval: 10m}
        """
            .formatted(name, replica, group));
  }

  @Test
  void liveAndExpiredReplicasWithTheirSlotsAndKustomizations() {
    Replicas replicas =
        Replicas.of(
            List.of(
                replicaLease("capstan-0", "2026-03-01T11:59:58.000000Z"),
                replicaLease("capstan-1", "2026-03-01T11:59:30.000000Z"),
                shardMap("capstan-0=0-512;capstan-1=512-1000")),
            List.of(
                owned("a", "capstan-0", "capstan-system/capstan"),
                owned("b", "capstan-0", "capstan-system/capstan"),
                owned("c", "capstan-1", "capstan-system/capstan"),
                owned("d", "capstan-0", "elsewhere/capstan")),
            List.of(),
            true,
            NOW);

    assertTrue(replicas.sharded());
    assertEquals(Replicas.LIVENESS, replicas.note());
    assertEquals(1, replicas.groups().size());
    ReplicaGroup group = replicas.groups().get(0);
    assertEquals("capstan-system", group.namespace());
    assertEquals("capstan", group.group());
    assertEquals("capstan-shards-capstan", group.shardMap());
    assertEquals("uid", group.key());
    assertEquals(1024, group.slots());
    assertEquals(24, group.unclaimed());
    assertEquals(List.of(), group.problems());

    Replica first = group.replicas().get(0);
    assertEquals("capstan-0", first.name());
    assertEquals("capstan-replica-capstan-0", first.lease());
    assertEquals("capstan-0", first.holder());
    assertEquals("0f5c-capstan-0", first.process());
    assertEquals("2026-03-01T11:59:58Z", first.renewTime());
    assertEquals(10, first.leaseDurationSeconds());
    assertEquals(LeaseState.LIVE, first.state());
    assertEquals(512, first.slots());
    assertEquals(
        List.of(new SlotSpan("0-512", "0x0000000000000000", "0x8000000000000000")), first.ranges());
    // d is labelled capstan-0 by a replica of another group: not this replica's
    assertEquals(2, first.kustomizations());

    Replica second = group.replicas().get(1);
    assertEquals(LeaseState.EXPIRED, second.state());
    assertEquals(488, second.slots());
    assertEquals(1, second.kustomizations());
    // capstan-0 (renewed 11:59:58 for 10 s) turns expired then without a change to tell the page
    assertEquals("2026-03-01T12:00:08Z", replicas.recheckAt());
  }

  @Test
  void withoutLiveReplicasThereIsNothingToRecheck() {
    Replicas replicas =
        Replicas.of(
            List.of(
                replicaLease("capstan-0", "2026-03-01T11:50:00.000000Z"),
                shardMap("capstan-0=0-512;capstan-2=512-1024")),
            List.of(),
            List.of(),
            true,
            NOW);

    assertEquals(LeaseState.EXPIRED, replicas.groups().get(0).replicas().get(0).state());
    assertEquals("", replicas.recheckAt());
  }

  @Test
  void aClaimWithoutLeaseIsShownAsSuch() {
    Replicas replicas =
        Replicas.of(
            List.of(
                replicaLease("capstan-0", "2026-03-01T11:59:58.000000Z"),
                shardMap("capstan-0=0-512;capstan-2=512-1024")),
            List.of(),
            List.of(),
            true,
            NOW);

    Replica gone = replicas.groups().get(0).replicas().get(1);
    assertEquals("capstan-2", gone.name());
    assertEquals(LeaseState.NO_LEASE, gone.state());
    assertEquals("", gone.lease());
    assertEquals(512, gone.slots());
    assertEquals(
        List.of(new SlotSpan("512-1024", "0x8000000000000000", "0x10000000000000000")),
        gone.ranges());
  }

  @Test
  void aReplicaBeforeTheMapIsWrittenClaimsNothing() {
    Replicas replicas =
        Replicas.of(
            List.of(replicaLease("capstan-0", "2026-03-01T11:59:59.000000Z")),
            List.of(),
            List.of(),
            true,
            NOW);

    ReplicaGroup group = replicas.groups().get(0);
    assertEquals("", group.shardMap());
    assertEquals(0, group.slots());
    assertEquals(0, group.replicas().get(0).slots());
    assertEquals(LeaseState.LIVE, group.replicas().get(0).state());
  }

  @Test
  void unreadableClaimsHoldEverySlotAsTheEngineTakesThemAndAreSaidWithoutQuoting() {
    Replicas replicas =
        Replicas.of(
            List.of(shardMap("capstan-0=<script>alert(1)</script>;=0-4;capstan-1=0-2048")),
            List.of(),
            List.of(),
            true,
            NOW);

    ReplicaGroup group = replicas.groups().get(0);
    String unreadable =
        "the shard map capstan-shards-capstan has a claim that cannot be read, which the engine"
            + " takes for every slot until its replica rewrites it";
    assertEquals(
        List.of(
            "the shard map capstan-shards-capstan has a claim that names no replica",
            unreadable,
            unreadable),
        group.problems());
    assertFalse(group.problems().stream().anyMatch(p -> p.contains("script")));
    assertEquals(
        List.of("capstan-0", "capstan-1"), group.replicas().stream().map(Replica::name).toList());
    for (Replica replica : group.replicas()) {
      assertEquals(1024, replica.slots());
      assertEquals(LeaseState.NO_LEASE, replica.state());
    }
    assertEquals(0, group.unclaimed());
  }

  @Test
  void aLongReplicaNameTheEngineKeepsIsShownCut() {
    String name = "r".repeat(300);
    ReplicaGroup group =
        Replicas.of(List.of(shardMap(name + "=0-4")), List.of(), List.of(), true, NOW)
            .groups()
            .get(0);

    assertEquals(List.of(), group.problems());
    assertEquals(1, group.replicas().size());
    assertEquals("r".repeat(ReplicaGroup.MAX_NAME) + "…", group.replicas().get(0).name());
    assertEquals(4, group.replicas().get(0).slots());
  }

  @Test
  void aMapWithoutSlotCountIsAProblem() {
    Lease map = shardMap("capstan-0=0-4");
    map.getMetadata().getAnnotations().put("shards.capstan.dev/slots", "99");

    ReplicaGroup group = Replicas.of(List.of(map), List.of(), List.of(), true, NOW).groups().get(0);

    assertEquals(
        List.of("the shard map capstan-shards-capstan names no slot count from 1 to 16 bits"),
        group.problems());
    assertEquals(0, group.slots());
  }

  @Test
  void withoutShardLeasesTheEngineIsNotSharded() {
    Lease leader =
        lease(
            """
            apiVersion: coordination.k8s.io/v1
            kind: Lease
            metadata: {name: capstan-leader, namespace: capstan-system}
            spec: {holderIdentity: capstan-7d9f, leaseDurationSeconds: 15}
            """);
    // a Lease named like a replica's but without the group label is not a replica's
    Lease unlabelled = replicaLease("capstan-0", "2026-03-01T11:59:59.000000Z");
    unlabelled.getMetadata().setLabels(null);

    Replicas replicas = Replicas.of(List.of(leader, unlabelled), List.of(), List.of(), true, NOW);

    assertFalse(replicas.sharded());
    assertEquals(Replicas.UNSHARDED, replicas.note());
    assertEquals(List.of(), replicas.groups());
    assertEquals(List.of(), replicas.problems());
    assertEquals("", replicas.recheckAt());
  }

  @Test
  void whenTheViewMayMissTheLeasesItCannotTell() {
    Replicas forbidden =
        Replicas.of(List.of(), List.of(), List.of("cannot list Leases"), true, NOW);
    Replicas unsynced = Replicas.of(List.of(), List.of(), List.of(), false, NOW);
    Replicas labelled =
        Replicas.of(
            List.of(),
            List.of(owned("a", "capstan-0", "capstan-system/capstan")),
            List.of(),
            true,
            NOW);

    for (Replicas replicas : List.of(forbidden, unsynced, labelled)) {
      assertFalse(replicas.sharded());
      assertTrue(replicas.note().startsWith(Replicas.CANNOT_TELL), replicas.note());
    }
    assertEquals(List.of("cannot list Leases"), forbidden.problems());
    assertTrue(forbidden.note().contains("cannot be listed"), forbidden.note());
    assertTrue(unsynced.note().contains("not all been listed yet"), unsynced.note());
    assertTrue(labelled.note().contains("carry a replica's label"), labelled.note());
  }

  @Test
  void theOverviewShowsEachKustomizationsReplica() {
    Overview overview =
        Overview.of(
            List.of(owned("a", "capstan-1", "capstan-system/capstan")),
            List.of(),
            List.of(),
            List.of());

    assertEquals("capstan-1", overview.kustomizations().get(0).replica());
    assertEquals(
        "",
        Overview.row(UiFixtures.ks("b", "web", "True", "Ready", "True", false, "[]")).replica());
  }
}
