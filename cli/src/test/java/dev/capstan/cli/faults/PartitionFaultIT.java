package dev.capstan.cli.faults;

import dev.capstan.testing.CapstanCrds;
import dev.capstan.testing.ClusterAccess;
import dev.capstan.testing.KubernetesCluster;
import dev.capstan.testing.TestNamespace;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fault bench's partitions at a small size: the engine's API connections reset and refused for
 * 5 s, then black-holed for 60 s (one engine, no Lease: it must catch up once the partition heals);
 * every invariant holds after each. {@link LeaderPartitionFaultIT} partitions a leader from its
 * standby.
 */
@ExtendWith(KubernetesCluster.class)
class PartitionFaultIT {

  @BeforeAll
  static void installCrds(KubernetesClient admin) {
    CapstanCrds.install(admin);
  }

  @Test
  void aPartitionFromTheApiServerLosesNothingAndConverges(
      KubernetesClient admin, TestNamespace ns, ClusterAccess access, @TempDir Path dir)
      throws Exception {
    try (FaultTestRun run = FaultTestRun.start(admin, ns, access, dir)) {
      run.assertHolds(Fault.PARTITION_DROP, 1);
      run.assertHolds(Fault.PARTITION_BLACK_HOLE, 1);
      run.assertHoldsAtTheEnd();
    }
  }
}
