package dev.capstan.cli.faults;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

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
 * The fault bench's full artifact disk at a small size: the engine's store on a 64 MiB tmpfs,
 * filled while a commit is fetched; the fetch fails naming the full disk, and once the space is
 * freed every invariant holds.
 */
@ExtendWith(KubernetesCluster.class)
class ArtifactDiskFaultIT {

  @BeforeAll
  static void installCrds(KubernetesClient admin) {
    CapstanCrds.install(admin);
  }

  @Test
  void aFullArtifactDiskFailsTheFetchClearlyAndConvergesOnceFreed(
      KubernetesClient admin, TestNamespace ns, ClusterAccess access, @TempDir Path dir)
      throws Exception {
    assumeTrue(ArtifactDisks.mountable(), "mounting the small artifact disk (a tmpfs) needs root");
    try (FaultTestRun run =
        FaultTestRun.start(admin, ns, access, dir, c -> c.artifactsOnDisksOf(64L << 20))) {
      run.assertHolds(Fault.DISK_FULL, 1);
      run.assertHoldsAtTheEnd();
    }
  }
}
