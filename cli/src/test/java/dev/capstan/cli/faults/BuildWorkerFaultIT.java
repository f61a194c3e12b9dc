package dev.capstan.cli.faults;

import static org.junit.jupiter.api.Assertions.assertFalse;

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
 * The fault bench's build worker kill at a small size: the engine's kustomize workers killed with
 * SIGKILL again and again for 5 s while the round's builds run, twice; every invariant holds after
 * each, and the engine builds with new workers.
 */
@ExtendWith(KubernetesCluster.class)
class BuildWorkerFaultIT {

  @BeforeAll
  static void installCrds(KubernetesClient admin) {
    CapstanCrds.install(admin);
  }

  @Test
  void killingBuildWorkersMidBuildLosesNothingAndConverges(
      KubernetesClient admin, TestNamespace ns, ClusterAccess access, @TempDir Path dir)
      throws Exception {
    try (FaultTestRun run = FaultTestRun.start(admin, ns, access, dir)) {
      run.assertHolds(Fault.WORKER_KILL, 2);
      run.assertHoldsAtTheEnd();
      // The last kill may come after the rounds' last build, leaving no worker alive until the
      // next one: a change after the kills is built, and so by a worker started anew.
      run.assertAChangeConverges();
      assertFalse(BuildWorkerKills.workersOf(run.enginePid()).isEmpty());
    }
  }
}
