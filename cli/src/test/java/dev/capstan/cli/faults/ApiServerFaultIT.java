package dev.capstan.cli.faults;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.testing.CapstanCrds;
import dev.capstan.testing.ClusterAccess;
import dev.capstan.testing.KubernetesCluster;
import dev.capstan.testing.TestNamespace;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
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

  /** Whatever happened, the shared API server must answer again before the next test runs. */
  @AfterAll
  static void awaitThePlaneReady(KubernetesClient admin) throws InterruptedException {
    assertTrue(
        ControlPlane.awaitReady(admin, Duration.ofMinutes(3)),
        "the API server did not answer /readyz within 3 minutes");
  }

  @Test
  void anApiServerRestartedOrPausedLosesNothingAndConverges(
      KubernetesClient admin, TestNamespace ns, ClusterAccess access, @TempDir Path dir)
      throws Exception {
    try (FaultTestRun run = FaultTestRun.start(admin, ns, access, dir)) {
      run.assertHolds(Fault.API_RESTART, 1);
      run.assertHolds(Fault.API_PAUSE, 1);
      run.assertHoldsAtTheEnd();
    }
  }
}
