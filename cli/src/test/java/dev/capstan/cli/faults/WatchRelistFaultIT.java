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
 * The fault bench's relist at a small size: etcd compacted and the API server restarted, so the
 * engine's watches are answered 410 Gone and list again; every invariant holds after it.
 */
@ExtendWith(KubernetesCluster.class)
class WatchRelistFaultIT {

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
  void everyWatchRelistingLosesNothingAndConverges(
      KubernetesClient admin, TestNamespace ns, ClusterAccess access, @TempDir Path dir)
      throws Exception {
    try (FaultTestRun run = FaultTestRun.start(admin, ns, access, dir)) {
      run.assertHolds(Fault.RELIST, 1);
      run.assertHoldsAtTheEnd();
    }
  }
}
