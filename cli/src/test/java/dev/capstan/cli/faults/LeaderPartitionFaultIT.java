package dev.capstan.cli.faults;

import dev.capstan.testing.CapstanCrds;
import dev.capstan.testing.ClusterAccess;
import dev.capstan.testing.KubernetesCluster;
import dev.capstan.testing.TestNamespace;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fault bench's partition of a leader from its standby at a small size: two engines elect a
 * leader, whose API connections are black-holed for 60 s, twice (so each engine's place is
 * partitioned once). Each time the old leader must exit before the standby takes the Lease, the
 * standby must take it within the partition, and every invariant holds after.
 */
@ExtendWith(KubernetesCluster.class)
class LeaderPartitionFaultIT {

  @BeforeAll
  static void installCrds(KubernetesClient admin) {
    CapstanCrds.install(admin);
  }

  @Test
  void aPartitionedLeaderStopsBeforeItsStandbyTakesOverAndNothingIsLost(
      KubernetesClient admin, TestNamespace ns, ClusterAccess access, @TempDir Path dir)
      throws Exception {
    try (FaultTestRun run =
        FaultTestRun.start(admin, ns, access, dir, Set.of(Fault.PARTITION_LEADER))) {
      run.assertHolds(Fault.PARTITION_LEADER, 2);
      run.assertHoldsAtTheEnd();
    }
  }
}
