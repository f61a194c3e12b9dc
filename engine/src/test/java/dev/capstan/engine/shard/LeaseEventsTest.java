package dev.capstan.engine.shard;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LeaseEventsTest {
  private static final String MAP = "capstan-shards-g";

  private final List<String> told = new ArrayList<>();
  private final LeaseEvents events =
      new LeaseEvents(
          "me",
          MAP,
          new LeaseEvents.Listener() {
            @Override
            public void renewed(ReplicaLeases.Seen lease) {
              told.add("renewed " + lease.replica() + "@" + lease.version());
            }

            @Override
            public void changed() {
              told.add("changed");
            }
          });

  @Test
  void aReleasedLeaseAsksForARoundAtOnce() {
    events.onDelete(replica("other", "7"), false);

    assertEquals(List.of("changed"), told);
  }

  @Test
  void aRenewalIsEvidenceOfLifeAndNoReasonForARound() {
    events.onUpdate(replica("other", "7"), replica("other", "8"));

    assertEquals(List.of("renewed other@8"), told);
  }

  @Test
  void aJoiningReplicaIsSeenLiveAndAsksForARound() {
    events.onAdd(replica("other", "1"));

    assertEquals(List.of("renewed other@1", "changed"), told);
  }

  @Test
  void theMapWrittenByAnotherAsksForARoundAndWrittenHereDoesNot() {
    events.onUpdate(map("1", "other abc"), map("2", "other def"));
    events.onUpdate(map("2", "other def"), map("3", "me 123"));
    events.onUpdate(map("3", "me 123"), map("4", "meadow 9")); // a name this one begins
    events.onDelete(map("4", "meadow 9"), true);

    assertEquals(List.of("changed", "changed", "changed"), told);
  }

  @Test
  void thisReplicasOwnLeaseAndResyncsAreNotReported() {
    events.onAdd(replica("me", "1"));
    events.onUpdate(replica("me", "1"), replica("me", "2"));
    events.onDelete(replica("me", "2"), false);
    events.onUpdate(replica("other", "5"), replica("other", "5"));
    events.onUpdate(map("5", "other x"), map("5", "other x"));
    events.onAdd(new LeaseBuilder().withNewMetadata().withName("no-holder").endMetadata().build());

    assertEquals(List.of(), told);
  }

  private static Lease replica(String name, String version) {
    return new LeaseBuilder()
        .withNewMetadata()
        .withName(ShardOptions.REPLICA_LEASE_PREFIX + name)
        .withResourceVersion(version)
        .addToLabels(ShardOptions.GROUP_LABEL, "g")
        .endMetadata()
        .withNewSpec()
        .withHolderIdentity(name)
        .withLeaseDurationSeconds(10)
        .endSpec()
        .build();
  }

  private static Lease map(String version, String written) {
    return new LeaseBuilder()
        .withNewMetadata()
        .withName(MAP)
        .withResourceVersion(version)
        .addToAnnotations(ShardMap.WRITTEN, written)
        .endMetadata()
        .withNewSpec()
        .endSpec()
        .build();
  }
}
