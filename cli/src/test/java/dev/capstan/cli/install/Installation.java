package dev.capstan.cli.install;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.capstan.engine.testing.Kubectl;
import dev.capstan.testing.ClusterAccess;
import dev.capstan.testing.RepoRoot;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;

/** Installs Capstan with {@code kubectl apply -k deploy/} and removes it again (the CRDs stay). */
final class Installation {
  static final String SYSTEM = "capstan-system";

  private Installation() {}

  /** Applies deploy/ with the real kubectl; returns the kubectl used. */
  static Path apply(KubernetesClient admin, ClusterAccess access) throws Exception {
    Optional<Path> found = Kubectl.find();
    if (found.isEmpty() && "true".equalsIgnoreCase(System.getenv("CI"))) {
      throw new AssertionError("kubectl is required in CI: build the control plane first");
    }
    Assumptions.assumeTrue(
        found.isPresent(), "no kubectl found: kubectl apply -k deploy/ cannot be tested");
    // A namespace left terminating by an earlier test would refuse the new objects.
    await()
        .atMost(Duration.ofMinutes(2))
        .until(
            () -> {
              var ns = admin.namespaces().withName(SYSTEM).get();
              return ns == null || ns.getMetadata().getDeletionTimestamp() == null;
            });
    Kubectl.Result result =
        Kubectl.run(found.get(), access, RepoRoot.find(), "apply", "-k", "deploy/");
    assertEquals(0, result.exitCode(), result.output());
    Kubectl.Result crds =
        Kubectl.run(found.get(), access, RepoRoot.find(), "apply", "-f", "deploy/crds");
    assertEquals(
        0, crds.exitCode(), "kubectl apply -f deploy/crds keeps working:\n" + crds.output());
    return found.get();
  }

  /** Deletes what deploy/install created, leaving the CRDs other tests use. */
  static void remove(KubernetesClient admin) {
    InstallCleanup.removeClusterWide(admin);
    admin.namespaces().withName(SYSTEM).delete();
  }
}
