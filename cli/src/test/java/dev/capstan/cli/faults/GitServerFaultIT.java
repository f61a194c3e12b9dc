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
 * The fault bench's Git server faults at a small size: down, answering 500s, cutting its answers
 * short and trickling them at a byte a second, 20 s each; every invariant holds after each.
 */
@ExtendWith(KubernetesCluster.class)
class GitServerFaultIT {

  @BeforeAll
  static void installCrds(KubernetesClient admin) {
    CapstanCrds.install(admin);
  }

  @Test
  void aGitServerDownFailingOrSlowLosesNothingAndConverges(
      KubernetesClient admin, TestNamespace ns, ClusterAccess access, @TempDir Path dir)
      throws Exception {
    try (FaultTestRun run = FaultTestRun.start(admin, ns, access, dir)) {
      run.assertHolds(Fault.GIT_DOWN, 1);
      run.assertHolds(Fault.GIT_500, 1);
      run.assertHolds(Fault.GIT_TRUNCATED, 1);
      run.assertHolds(Fault.GIT_SLOW, 1);
      run.assertHoldsAtTheEnd();
    }
  }
}
