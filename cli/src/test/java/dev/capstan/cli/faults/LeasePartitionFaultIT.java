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
 * The fault bench's Lease-only partition at a small size: two engines elect a leader, and the API
 * server refuses the leader's renewals of its Lease for 30 s while passing its other requests,
 * twice (so each engine's place is cut off once). Each time the old leader, whose writes would
 * still pass, must stop before the standby takes the Lease, the standby must take it within the 30
 * s, and every invariant holds after. {@link LeaderPartitionFaultIT} black-holes all of the
 * leader's connections.
 */
@ExtendWith(KubernetesCluster.class)
class LeasePartitionFaultIT {

  @BeforeAll
  static void installCrds(KubernetesClient admin) {
    CapstanCrds.install(admin);
  }

  @Test
  void aLeaderThatCannotRenewItsLeaseStopsBeforeItsStandbyTakesOverAndNothingIsLost(
      KubernetesClient admin, TestNamespace ns, ClusterAccess access, @TempDir Path dir)
      throws Exception {
    try (FaultTestRun run =
        FaultTestRun.start(admin, ns, access, dir, Set.of(Fault.PARTITION_LEASE))) {
      run.assertHolds(Fault.PARTITION_LEASE, 2);
      run.assertHoldsAtTheEnd();
    }
  }
}
