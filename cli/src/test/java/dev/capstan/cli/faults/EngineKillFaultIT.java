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
 * The fault bench's kill -9 of the engine at a random moment 0.2-2 s after a commit (while its
 * reconciles may run), three times at a small size, then once aimed at each stage of a
 * Kustomization's reconcile (its apply, its prune, its in-progress status write): every invariant
 * holds.
 */
@ExtendWith(KubernetesCluster.class)
class EngineKillFaultIT {

  @BeforeAll
  static void installCrds(KubernetesClient admin) {
    CapstanCrds.install(admin);
  }

  @Test
  void killingTheEngineAfterACommitLosesNothingAndConverges(
      KubernetesClient admin, TestNamespace ns, ClusterAccess access, @TempDir Path dir)
      throws Exception {
    try (FaultTestRun run = FaultTestRun.start(admin, ns, access, dir)) {
      run.assertHolds(Fault.KILL, 3);
      run.assertHolds(Fault.KILL_MID_APPLY, 1);
      run.assertHolds(Fault.KILL_MID_PRUNE, 1);
      run.assertHolds(Fault.KILL_MID_STATUS, 1);
      run.assertHoldsAtTheEnd();
    }
  }
}
