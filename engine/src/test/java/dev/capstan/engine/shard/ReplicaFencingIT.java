package dev.capstan.engine.shard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.sharding.ShardKey;
import dev.capstan.sharding.SlotSpace;
import dev.capstan.testing.KubernetesCluster;
import dev.capstan.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Faults of membership on the local control plane, with the replicas' memberships alone (no
 * engine): a second process given a replica name in use takes nothing and says why in an Event on
 * the Lease, a replica's Lease deleted by hand (the replica paused) moves no slot before it could
 * expire and all of them after, and a replica of another group (a second installation) leaves alone
 * what a live group owns.
 */
@ExtendWith(KubernetesCluster.class)
class ReplicaFencingIT {
  private static final int SLOTS = SlotSpace.DEFAULT.count();
  private final List<ShardMembership> started = new ArrayList<>();

  @AfterEach
  void stop() {
    started.forEach(ShardMembership::close);
  }

  @Test
  void aSecondProcessGivenAReplicaNameInUseTakesNothingUntilTheFirstIsGone(
      KubernetesClient client, TestNamespace ns) {
    ShardMembership first = start(client, ns, "same-name", "a");
    awaitClaimed(first, SLOTS);

    ShardMembership second = start(client, ns, "same-name", "a");
    ConfigMap object = object("some-uid");
    long until = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    while (System.nanoTime() < until) {
      assertFalse(second.gate().owns(object), "the second process owns what the first owns");
      assertEquals(0, second.gate().claimed().cardinality());
      assertEquals(SLOTS, first.gate().claimed().cardinality());
      sleep(50);
    }
    Lease lease = client.leases().inNamespace(ns.name()).withName("capstan-replica-a").get();
    assertTrue(
        client.v1().events().inNamespace(ns.name()).list().getItems().stream()
            .anyMatch(
                e ->
                    "ReplicaNameInUse".equals(e.getReason())
                        && "capstan-replica-a".equals(e.getInvolvedObject().getName())
                        && "Lease".equals(e.getInvolvedObject().getKind())
                        && lease.getMetadata().getUid().equals(e.getInvolvedObject().getUid())
                        && e.getMessage().contains("--replica-name")),
        "no ReplicaNameInUse Event on the Lease");

    first.close();
    started.remove(first);
    // the first gave its slots and its Lease up: the second takes them
    awaitClaimed(second, SLOTS);
  }

  @Test
  void aLeaseDeletedByHandMovesNothingWhileItsReplicaLives(
      KubernetesClient client, TestNamespace ns) {
    long began = System.nanoTime(); // before any renewal of a
    ShardMembership a = start(client, ns, "deleted", "a");
    ShardMembership b = start(client, ns, "deleted", "b");
    Awaitility.await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                a.gate().claimed().cardinality() + b.gate().claimed().cardinality() == SLOTS
                    && a.gate().claimed().cardinality() > 0
                    && b.gate().claimed().cardinality() > 0);
    BitSet ofA = a.gate().claimed();

    // a stops (paused, say) and does not recreate its Lease: only its claims stand for it
    a.freeze();
    client.leases().inNamespace(ns.name()).withName("capstan-replica-a").delete();

    // b saw a's last renewal after a sent it, and counts a live for a Lease after that: nothing
    // of a's moves before a's last renewal (by a's gate, once a round under way at the freeze
    // ended) plus the Lease, let alone before a's fence closed
    ShardOptions options = options("deleted", "a", ns);
    while (System.nanoTime() < lastRenewal(a, began, options) + options.leaseDuration().toNanos()) {
      BitSet taken = b.gate().claimed();
      taken.and(ofA);
      assertTrue(taken.isEmpty(), "slots of a live replica moved: " + taken);
      assertNull(
          client.leases().inNamespace(ns.name()).withName("capstan-replica-a").get(),
          "the Lease came back: the test no longer tests a deleted one");
      sleep(50);
    }
    // a's Lease expired as b sees it: its slots move, and a writes nothing any more
    awaitClaimed(b, SLOTS);
    long fenceClosed = lastRenewal(a, began, options) + options.writeDeadline().toNanos();
    assertTrue(System.nanoTime() >= fenceClosed, "a's slots moved before its write deadline");
    assertEquals(Duration.ZERO, a.gate().writeTimeLeft(System.nanoTime()));
  }

  /**
   * When {@code membership}'s gate was last renewed, from the time its fence had left at {@code
   * before}, a moment before that renewal.
   */
  private static long lastRenewal(ShardMembership membership, long before, ShardOptions options) {
    Duration left = membership.gate().writeTimeLeft(before);
    return before + left.toNanos() - options.writeDeadline().toNanos();
  }

  @Test
  void aReplicaOfAnotherGroupLeavesWhatALiveGroupOwnsAlone(
      KubernetesClient client, TestNamespace ns) {
    ShardMembership first = start(client, ns, "group-one", "a");
    ShardMembership second = start(client, ns, "group-two", "b");
    awaitClaimed(first, SLOTS);
    awaitClaimed(second, SLOTS);
    client
        .configMaps()
        .inNamespace(ns.name())
        .resource(new ConfigMapBuilder().withNewMetadata().withName("owned").endMetadata().build())
        .create();

    first.gate().enter(live(client, ns)).orElseThrow().close();
    assertEquals("a", live(client, ns).getMetadata().getLabels().get(ShardOptions.REPLICA_LABEL));

    assertTrue(second.gate().enter(live(client, ns)).isEmpty(), "two groups own it");
    assertEquals("a", live(client, ns).getMetadata().getLabels().get(ShardOptions.REPLICA_LABEL));
    assertTrue(
        client.v1().events().inNamespace(ns.name()).list().getItems().stream()
            .anyMatch(
                e ->
                    "OwnedByAnotherGroup".equals(e.getReason())
                        && "owned".equals(e.getInvolvedObject().getName())
                        && e.getMessage().contains("group-one")),
        "no OwnedByAnotherGroup Event on the object");

    first.close(); // its Lease is deleted: the other group may take it once it reads that again
    started.remove(first);
    Awaitility.await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () -> {
              var pass = second.gate().enter(live(client, ns));
              pass.ifPresent(ShardGate.Pass::close);
              return pass.isPresent();
            });
    assertEquals("b", live(client, ns).getMetadata().getLabels().get(ShardOptions.REPLICA_LABEL));
  }

  private static ConfigMap live(KubernetesClient client, TestNamespace ns) {
    return client.configMaps().inNamespace(ns.name()).withName("owned").get();
  }

  private ShardMembership start(
      KubernetesClient client, TestNamespace ns, String group, String replica) {
    ShardOptions options = options(group, replica, ns);
    ShardMembership membership =
        new ShardMembership(
            client,
            options,
            ns.name(),
            ShardGate.of(options, System::nanoTime),
            Stream::empty,
            Clock.systemUTC(),
            System::nanoTime);
    membership.start();
    started.add(membership);
    return membership;
  }

  private static ShardOptions options(String group, String replica, TestNamespace ns) {
    return new ShardOptions(
        replica,
        group,
        Optional.of(ns.name()),
        ShardKey.UID,
        Duration.ofSeconds(6),
        Duration.ofSeconds(1),
        SlotSpace.DEFAULT);
  }

  private static void awaitClaimed(ShardMembership membership, int slots) {
    Awaitility.await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> membership.gate().claimed().cardinality() == slots);
  }

  private static ConfigMap object(String uid) {
    return new ConfigMapBuilder()
        .withNewMetadata()
        .withName("x")
        .withUid(uid)
        .endMetadata()
        .build();
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
