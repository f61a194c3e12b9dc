package dev.capstan.cli.cluster;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

class ClusterConnectionTest {

  @TempDir Path dir;

  @Command(name = "probe")
  static final class Probe {
    @Mixin ClusterOptions cluster = new ClusterOptions();
  }

  @Test
  void discardingAClientStillConnectingStopsItsEventLoopsBeforeReturning() throws Exception {
    try (ServerSocket silent = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      CountDownLatch connected = new CountDownLatch(1);
      Thread accepting = new Thread(() -> holdOneConnection(silent, connected), "silent");
      accepting.setDaemon(true);
      accepting.start();

      ClusterConnection connection = ClusterConnection.openInBackground(options(silent));
      assertTrue(connected.await(10, TimeUnit.SECONDS), "the opener connects to the server");
      assertFalse(connection.stopped(), "the client is open and waiting for its answer");

      connection.discard();
      assertTrue(connection.stopped(), "discard returns only once the event loops have stopped");
    }
  }

  @Test
  void aClientOpenedAfterItWasDiscardedIsStoppedByTheOpener() throws Exception {
    try (ServerSocket silent = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      ClusterConnection connection = ClusterConnection.openInBackground(options(silent));
      connection.discard(); // most likely before the opener has made its client

      Awaitility.await().atMost(Duration.ofSeconds(10)).until(connection::stopped);
    }
  }

  private ClusterOptions options(ServerSocket server) throws IOException {
    Path kubeconfig = dir.resolve("kubeconfig");
    Files.writeString(
        kubeconfig,
        """
        apiVersion: v1
        kind: Config
        clusters:
        - {name: local, cluster: {server: "http://127.0.0.1:%d"}}
        users:
        - {name: u, user: {token: not-a-secret}}
        contexts:
        - {name: local, context: {cluster: local, user: u}}
        current-context: local
        """
            .formatted(server.getLocalPort()));
    Probe probe = new Probe();
    new CommandLine(probe).parseArgs("--kubeconfig", kubeconfig.toString());
    return probe.cluster;
  }

  /** Accepts one connection and never answers, as a server that hangs. */
  private static void holdOneConnection(ServerSocket server, CountDownLatch connected) {
    try (Socket socket = server.accept()) {
      connected.countDown();
      while (socket.getInputStream().read() >= 0) {
        // read the request and wait for the client to go away
      }
    } catch (IOException e) {
      // the client went away
    }
  }
}
