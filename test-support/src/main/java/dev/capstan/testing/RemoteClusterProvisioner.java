package dev.capstan.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * Finds a second cluster, for tests of a Kustomization that applies to a remote cluster: the
 * kubeconfig in {@code CAPSTAN_TEST_REMOTE_KUBECONFIG}, else, when the tests run on the local
 * control plane, a second local control plane that {@code deploy/testcluster/up} starts on its own
 * ports and state directory ({@code ~/.cache/capstan/cluster-remote}; idempotent as up is),
 * trusting the first local control plane's service-account tokens issued for the second one's
 * address (what the engine requests for {@code configMapRef} by default), so that secret-less
 * access can be tested end to end. With an external first cluster and no remote one given there is
 * none, and the tests say why.
 */
record RemoteClusterProvisioner(Map<String, String> env, Path repoRoot, ProcessRunner runner) {
  static final String KUBECONFIG_ENV = "CAPSTAN_TEST_REMOTE_KUBECONFIG";

  /**
   * The second control plane's state directory under the cache; run-tests stops it by this name.
   */
  static final String STATE_DIR = "cluster-remote";

  /** Ports of the second control plane: the first one's defaults plus 100. */
  static final Map<String, String> PORTS =
      Map.of(
          "CAPSTAN_ETCD_PORT", "23890",
          "CAPSTAN_APISERVER_PORT", "26543",
          "CAPSTAN_KCM_PORT", "20357",
          "CAPSTAN_SCHEDULER_PORT", "20359");

  /** The second control plane's address: the audience its tokens from the first one are for. */
  static final String ADDRESS = "https://127.0.0.1:" + PORTS.get("CAPSTAN_APISERVER_PORT");

  /**
   * The second cluster's admin kubeconfig.
   *
   * @throws NoRemoteClusterException when there is none to be had with an external first cluster
   * @throws NoClusterException when the second local control plane cannot be started
   */
  Path provision() {
    String given = env.get(KUBECONFIG_ENV);
    if (given != null && !given.isBlank()) {
      Path path = Path.of(given);
      if (!Files.isReadable(path)) {
        throw new NoClusterException(KUBECONFIG_ENV + " names " + path + ", which cannot be read");
      }
      return path;
    }
    String first =
        System.getProperty(
            ClusterProvisioner.KUBECONFIG_PROPERTY, env.get(ClusterProvisioner.KUBECONFIG_ENV));
    if (first != null && !first.isBlank()) {
      throw new NoRemoteClusterException(
          "the tests run on the cluster of "
              + ClusterProvisioner.KUBECONFIG_ENV
              + "; set "
              + KUBECONFIG_ENV
              + " to the kubeconfig of a second cluster to run the remote cluster tests");
    }
    return startSecondControlPlane();
  }

  /** Where the second control plane keeps its state. */
  Path stateDir() {
    return cacheDir().resolve(STATE_DIR);
  }

  /** The first local control plane's admin kubeconfig, where up (run as the first) keeps it. */
  Path firstKubeconfig() {
    String dir = env.get("CAPSTAN_TESTCLUSTER_DIR");
    Path state = dir == null || dir.isBlank() ? cacheDir().resolve("cluster") : Path.of(dir);
    return state.resolve("admin.kubeconfig");
  }

  private Path cacheDir() {
    String cache = env.get("CAPSTAN_CACHE");
    return cache == null || cache.isBlank()
        ? Path.of(System.getProperty("user.home"), ".cache", "capstan")
        : Path.of(cache);
  }

  private Path startSecondControlPlane() {
    Path up = repoRoot.resolve("deploy/testcluster/up");
    Map<String, String> settings = new HashMap<>(PORTS);
    settings.put("CAPSTAN_TESTCLUSTER_DIR", stateDir().toString());
    settings.put("CAPSTAN_TESTCLUSTER_NODES", "1");
    Path first = firstKubeconfig();
    if (Files.isReadable(first)) {
      settings.put("CAPSTAN_TRUSTED_CLUSTER_KUBECONFIG", first.toString());
      settings.put("CAPSTAN_API_AUDIENCES", ADDRESS);
    }
    try {
      ProcessRunner.Result result = runner.run(up, settings);
      String last = result.lastLine();
      if (result.exitCode() == 0 && last.startsWith("export KUBECONFIG=")) {
        return Path.of(last.substring("export KUBECONFIG=".length()).trim());
      }
      throw new NoClusterException(
          "the second local control plane did not start: "
              + up
              + " exited "
              + result.exitCode()
              + ":\n"
              + result.tail(40));
    } catch (IOException e) {
      throw new NoClusterException(
          "cannot run " + up + " for the second local control plane: " + e.getMessage());
    }
  }

  /** No second cluster, for a reason that is not a failure (an external first cluster). */
  static final class NoRemoteClusterException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    NoRemoteClusterException(String message) {
      super(message);
    }
  }
}
