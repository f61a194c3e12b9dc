package dev.capstan.testing;

import dev.capstan.testing.ClusterAccess.ClusterSource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * Finds a cluster for the tests: an explicitly given kubeconfig, else the local control plane
 * (started on demand by {@code deploy/testcluster/up}), else a k3s container where Docker runs.
 */
record ClusterProvisioner(Map<String, String> env, Path repoRoot, ProcessRunner runner) {
  static final String KUBECONFIG_PROPERTY = "capstan.test.kubeconfig";
  static final String KUBECONFIG_ENV = "CAPSTAN_TEST_KUBECONFIG";

  /** A provisioned cluster and what must be closed when the tests are done with it. */
  record Provisioned(ClusterAccess access, AutoCloseable onClose) {}

  Provisioned provision() {
    Optional<Path> explicit = explicitKubeconfig();
    if (explicit.isPresent()) {
      return new Provisioned(
          new ClusterAccess(explicit.get(), ClusterSource.EXPLICIT_KUBECONFIG), () -> {});
    }
    StringBuilder tried = new StringBuilder();
    Optional<Path> local = startLocalControlPlane(tried);
    if (local.isPresent()) {
      return new Provisioned(
          new ClusterAccess(local.get(), ClusterSource.LOCAL_CONTROL_PLANE), () -> {});
    }
    Optional<Provisioned> k3s = K3sCluster.startIfDockerAvailable(tried);
    if (k3s.isPresent()) {
      return k3s.get();
    }
    throw new NoClusterException(
        "No Kubernetes cluster for the integration tests. Tried:\n"
            + tried
            + "Set "
            + KUBECONFIG_ENV
            + " to a kubeconfig, or make deploy/testcluster/up work (it needs Go).");
  }

  private Optional<Path> explicitKubeconfig() {
    String value = System.getProperty(KUBECONFIG_PROPERTY, env.get(KUBECONFIG_ENV));
    if (value == null || value.isBlank()) {
      return Optional.empty();
    }
    Path path = Path.of(value);
    if (!Files.isReadable(path)) {
      throw new NoClusterException(KUBECONFIG_ENV + " names " + path + ", which cannot be read");
    }
    return Optional.of(path);
  }

  private Optional<Path> startLocalControlPlane(StringBuilder tried) {
    Path up = repoRoot.resolve("deploy/testcluster/up");
    if (!Files.isExecutable(up)) {
      tried.append("- local control plane: ").append(up).append(" not found\n");
      return Optional.empty();
    }
    try {
      ProcessRunner.Result result = runner.run(up);
      String last = result.lastLine();
      if (result.exitCode() == 0 && last.startsWith("export KUBECONFIG=")) {
        return Optional.of(Path.of(last.substring("export KUBECONFIG=".length()).trim()));
      }
      tried
          .append("- local control plane: ")
          .append(up)
          .append(" exited ")
          .append(result.exitCode())
          .append(":\n")
          .append(result.tail(40))
          .append('\n');
    } catch (IOException e) {
      tried
          .append("- local control plane: could not run ")
          .append(up)
          .append(": ")
          .append(e.getMessage())
          .append('\n');
    }
    return Optional.empty();
  }
}
