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
 * The fault bench's flood at a small size: 200 commits in a minute to the one repository; every
 * invariant holds after it.
 */
@ExtendWith(KubernetesCluster.class)
class CommitFloodFaultIT {

  @BeforeAll
  static void installCrds(KubernetesClient admin) {
    CapstanCrds.install(admin);
  }

  @Test
  void twoHundredCommitsInAMinuteConvergeToTheLast(
      KubernetesClient admin, TestNamespace ns, ClusterAccess access, @TempDir Path dir)
      throws Exception {
    try (FaultTestRun run = FaultTestRun.start(admin, ns, access, dir)) {
      run.assertHolds(Fault.FLOOD, 1);
      run.assertHoldsAtTheEnd();
    }
  }
}
