package dev.capstan.cli.faults;

import dev.capstan.testing.CapstanCrds;
import dev.capstan.testing.ClusterAccess;
import dev.capstan.testing.KubernetesCluster;
import dev.capstan.testing.TestNamespace;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.util.EnumSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fault bench's registry faults at a small size: the OCI registry down, answering 500s, cutting
 * its answers short and trickling them at a byte a second, 20 s each. Each fault must bite (a new
 * artifact pushed at its start is not fetched, the OCIRepository says why, the Kustomizations keep
 * the last artifact), and every invariant holds after each.
 */
@ExtendWith(KubernetesCluster.class)
class RegistryFaultIT {

  @BeforeAll
  static void installCrds(KubernetesClient admin) {
    CapstanCrds.install(admin);
  }

  @Test
  void aRegistryDownFailingOrSlowLosesNothingAndConverges(
      KubernetesClient admin, TestNamespace ns, ClusterAccess access, @TempDir Path dir)
      throws Exception {
    try (FaultTestRun run =
        FaultTestRun.start(
            admin,
            ns,
            access,
            dir,
            EnumSet.of(
                Fault.REGISTRY_DOWN,
                Fault.REGISTRY_500,
                Fault.REGISTRY_TRUNCATED,
                Fault.REGISTRY_SLOW))) {
      run.assertHolds(Fault.REGISTRY_DOWN, 1);
      run.assertHolds(Fault.REGISTRY_500, 1);
      run.assertHolds(Fault.REGISTRY_TRUNCATED, 1);
      run.assertHolds(Fault.REGISTRY_SLOW, 1);
      run.assertHoldsAtTheEnd();
    }
  }
}
