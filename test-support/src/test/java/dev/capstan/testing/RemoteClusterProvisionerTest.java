package dev.capstan.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where the second cluster comes from, and that it is skipped only with an external first cluster.
 */
class RemoteClusterProvisionerTest {

  /** Records what up would have been run with, and answers as a started control plane. */
  static final class RecordingRunner extends ProcessRunner {
    final List<Map<String, String>> runs = new ArrayList<>();
    int exit = 0;

    @Override
    Result run(Path script, Map<String, String> env) {
      runs.add(Map.copyOf(env));
      return new Result(
          exit,
          List.of(
              "testcluster: running",
              exit == 0
                  ? "export KUBECONFIG=" + env.get("CAPSTAN_TESTCLUSTER_DIR") + "/admin.kubeconfig"
                  : "port in use"));
    }
  }

  @Test
  void onTheLocalControlPlaneASecondOneIsStartedOnItsOwnPortsAndStateDirectory(
      @TempDir Path cache) {
    RecordingRunner runner = new RecordingRunner();
    Path kubeconfig =
        new RemoteClusterProvisioner(Map.of("CAPSTAN_CACHE", cache.toString()), cache, runner)
            .provision();

    assertEquals(cache.resolve("cluster-remote/admin.kubeconfig"), kubeconfig);
    Map<String, String> env = runner.runs.get(0);
    assertEquals(cache.resolve("cluster-remote").toString(), env.get("CAPSTAN_TESTCLUSTER_DIR"));
    assertEquals("26543", env.get("CAPSTAN_APISERVER_PORT"));
    assertEquals("23890", env.get("CAPSTAN_ETCD_PORT"));
    assertEquals("20357", env.get("CAPSTAN_KCM_PORT"));
    assertEquals("20359", env.get("CAPSTAN_SCHEDULER_PORT"));
    assertEquals(
        null,
        env.get("CAPSTAN_TRUSTED_CLUSTER_KUBECONFIG"),
        "no first control plane: nothing to trust");
  }

  @Test
  void theSecondControlPlaneTrustsTheFirstOnesTokensForItsOwnAddress(@TempDir Path cache)
      throws IOException {
    Path first = cache.resolve("cluster/admin.kubeconfig");
    Files.createDirectories(first.getParent());
    Files.writeString(first, "apiVersion: v1\nkind: Config\n");
    RecordingRunner runner = new RecordingRunner();
    new RemoteClusterProvisioner(Map.of("CAPSTAN_CACHE", cache.toString()), cache, runner)
        .provision();

    Map<String, String> env = runner.runs.get(0);
    assertEquals(first.toString(), env.get("CAPSTAN_TRUSTED_CLUSTER_KUBECONFIG"));
    assertEquals("https://127.0.0.1:26543", env.get("CAPSTAN_API_AUDIENCES"));

    // The first control plane in a state directory of its own is the one trusted.
    Path own = cache.resolve("mine/admin.kubeconfig");
    Files.createDirectories(own.getParent());
    Files.writeString(own, "apiVersion: v1\nkind: Config\n");
    new RemoteClusterProvisioner(
            Map.of(
                "CAPSTAN_CACHE",
                cache.toString(),
                "CAPSTAN_TESTCLUSTER_DIR",
                own.getParent().toString()),
            cache,
            runner)
        .provision();
    assertEquals(own.toString(), runner.runs.get(1).get("CAPSTAN_TRUSTED_CLUSTER_KUBECONFIG"));
    assertEquals(
        cache.resolve("cluster-remote").toString(),
        runner.runs.get(1).get("CAPSTAN_TESTCLUSTER_DIR"));
  }

  @Test
  void aSecondControlPlaneThatDoesNotStartIsAFailureNotASkip(@TempDir Path cache) {
    RecordingRunner runner = new RecordingRunner();
    runner.exit = 1;
    NoClusterException e =
        assertThrows(
            NoClusterException.class,
            () ->
                new RemoteClusterProvisioner(
                        Map.of("CAPSTAN_CACHE", cache.toString()), cache, runner)
                    .provision());
    assertTrue(
        e.getMessage().contains("the second local control plane did not start"), e.getMessage());
    assertTrue(e.getMessage().contains("port in use"), e.getMessage());
  }

  @Test
  void anExternalFirstClusterWithoutARemoteKubeconfigSaysHowToRunTheTests(@TempDir Path dir)
      throws IOException {
    Path first = Files.writeString(dir.resolve("first"), "");
    RecordingRunner runner = new RecordingRunner();
    RemoteClusterProvisioner.NoRemoteClusterException e =
        assertThrows(
            RemoteClusterProvisioner.NoRemoteClusterException.class,
            () ->
                new RemoteClusterProvisioner(
                        Map.of("CAPSTAN_TEST_KUBECONFIG", first.toString()), dir, runner)
                    .provision());
    assertTrue(e.getMessage().contains("set CAPSTAN_TEST_REMOTE_KUBECONFIG"), e.getMessage());
    assertTrue(runner.runs.isEmpty(), "nothing is started next to an external cluster");

    Path second = Files.writeString(dir.resolve("second"), "");
    assertEquals(
        second,
        new RemoteClusterProvisioner(
                Map.of(
                    "CAPSTAN_TEST_KUBECONFIG",
                    first.toString(),
                    "CAPSTAN_TEST_REMOTE_KUBECONFIG",
                    second.toString()),
                dir,
                runner)
            .provision());
    assertThrows(
        NoClusterException.class,
        () ->
            new RemoteClusterProvisioner(
                    Map.of("CAPSTAN_TEST_REMOTE_KUBECONFIG", dir.resolve("missing").toString()),
                    dir,
                    runner)
                .provision());
  }
}
