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
 * The fault bench's API server faults at a small size: restarted, and paused (SIGSTOP) for longer
 * than the client's timeouts; every invariant holds after each.
 */
@ExtendWith(KubernetesCluster.class)
class ApiServerFaultIT {

  @BeforeAll
  static void installCrds(KubernetesClient admin) {
    CapstanCrds.install(admin);
  }

  @Test
  void anApiServerRestartedOrPausedLosesNothingAndConverges(
      KubernetesClient admin, TestNamespace ns, ClusterAccess access, @TempDir Path dir)
      throws Exception {
    try (FaultTestRun run = FaultTestRun.start(admin, ns, access, dir)) {
      run.assertHolds(Fault.API_RESTART, 1);
      run.assertHolds(Fault.API_PAUSE, 1);
    }
  }
}
