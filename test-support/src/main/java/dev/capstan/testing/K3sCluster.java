package dev.capstan.testing;

import dev.capstan.testing.ClusterAccess.ClusterSource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.k3s.K3sContainer;
import org.testcontainers.utility.DockerImageName;

/** The fallback where Docker runs: a k3s cluster in a container. */
final class K3sCluster {
  static final String IMAGE = "rancher/k3s:v1.33.4-k3s1";

  private K3sCluster() {}

  static Optional<ClusterProvisioner.Provisioned> startIfDockerAvailable(StringBuilder tried) {
    boolean docker;
    try {
      docker = DockerClientFactory.instance().isDockerAvailable();
    } catch (RuntimeException e) {
      docker = false;
    }
    if (!docker) {
      tried.append("- k3s container: no Docker engine available\n");
      return Optional.empty();
    }
    K3sContainer k3s = new K3sContainer(DockerImageName.parse(IMAGE));
    try {
      k3s.start();
      Path kubeconfig = Files.createTempFile("capstan-k3s", ".kubeconfig");
      Files.writeString(kubeconfig, k3s.getKubeConfigYaml());
      return Optional.of(
          new ClusterProvisioner.Provisioned(
              new ClusterAccess(kubeconfig, ClusterSource.K3S_CONTAINER), k3s::stop));
    } catch (IOException | RuntimeException e) {
      k3s.stop();
      tried.append("- k3s container: ").append(e.getMessage()).append('\n');
      return Optional.empty();
    }
  }
}
