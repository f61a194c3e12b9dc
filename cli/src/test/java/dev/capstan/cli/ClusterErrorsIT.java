package dev.capstan.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The failures a user meets before any object is involved: no cluster at the address, and an API
 * server without Capstan's CRDs. Each must be one line and exit 1, never a stack trace.
 */
class ClusterErrorsIT {
  @TempDir Path dir;

  private Path kubeconfig(String server) throws IOException {
    Path file = dir.resolve("kubeconfig");
    Files.writeString(
        file,
        """
        apiVersion: v1
        kind: Config
        clusters:
        - name: c
          cluster: {server: "%s"}
        users:
        - name: u
          user: {token: not-a-secret}
        contexts:
        - name: ctx
          context: {cluster: c, user: u, namespace: team}
        current-context: ctx
        """
            .formatted(server));
    return file;
  }

  @Test
  void noClusterAtTheAddressIsOneLine() throws IOException {
    int port;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = socket.getLocalPort();
    }
    Path config = kubeconfig("https://127.0.0.1:" + port);
    for (String[] args :
        new String[][] {
          {"get", "ks"},
          {"reconcile", "ks", "app"},
          {"suspend", "ks", "app"},
          {"resume", "ks", "app"},
          {"tree", "ks", "app"}
        }) {
      CliRun run = CliRun.capstan(config, args);
      assertEquals(1, run.exitCode(), run::toString);
      assertEquals(1, run.err().lines().count(), run::toString);
      assertTrue(
          run.err()
              .startsWith(
                  "error: cannot reach the cluster at https://127.0.0.1:"
                      + port
                      + "/: connection refused (is the cluster running?"),
          run::toString);
    }
  }

  /**
   * Every command that talks to a cluster takes --context: here it names the only reachable-looking
   * server.
   */
  @Test
  void everyClusterCommandTakesTheContext() throws IOException {
    int port = freePort();
    Path config = dir.resolve("two-contexts");
    Files.writeString(
        config,
        """
        apiVersion: v1
        kind: Config
        clusters:
        - {name: current, cluster: {server: "https://capstan-no-such-host.invalid:6443"}}
        - {name: other, cluster: {server: "https://127.0.0.1:%d"}}
        users:
        - {name: u, user: {token: not-a-secret}}
        contexts:
        - {name: current, context: {cluster: current, user: u}}
        - {name: other, context: {cluster: other, user: u}}
        current-context: current
        """
            .formatted(port));
    Path manifests = Files.createDirectories(dir.resolve("manifests"));
    Files.writeString(
        manifests.resolve("cm.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n");
    String[][] commands = {
      {"get", "ks"},
      {"reconcile", "ks", "app"},
      {"suspend", "ks", "app"},
      {"resume", "ks", "app"},
      {"tree", "ks", "app"},
      {"apply", "-f", manifests.toString()},
      {"diff", "-f", manifests.toString()}
    };
    for (String[] args : commands) {
      CliRun run = CliRun.capstan(config, withContext(args, "other"));
      assertTrue(run.exitCode() == ("diff".equals(args[0]) ? 2 : 1), run::toString);
      assertEquals(1, run.err().lines().count(), run::toString);
      assertTrue(
          run.err()
              .startsWith(
                  "error: cannot reach the cluster at https://127.0.0.1:"
                      + port
                      + "/: connection refused"),
          () -> String.join(" ", args) + "\n" + run);
    }
  }

  private static String[] withContext(String[] args, String context) {
    String[] all = Arrays.copyOf(args, args.length + 2);
    all[args.length] = "--context";
    all[args.length + 1] = context;
    return all;
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  @Test
  void aMalformedKubeconfigIsOneLineThatNeverQuotesTheFile() throws IOException {
    Path config = dir.resolve("broken");
    Files.writeString(config, "apiVersion: v1\nusers:\n- name: u\n  user: {token: [s3cr3t-token\n");
    Path manifests = Files.createDirectories(dir.resolve("manifests"));
    Files.writeString(
        manifests.resolve("cm.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n");
    for (String[] args :
        new String[][] {
          {"get", "ks"},
          {"tree", "ks", "app"},
          {"apply", "-f", manifests.toString()},
          {"diff", "-f", manifests.toString()}
        }) {
      CliRun run = CliRun.capstan(config, args);
      assertEquals("diff".equals(args[0]) ? 2 : 1, run.exitCode(), run::toString);
      assertEquals(1, run.err().lines().count(), run::toString);
      assertTrue(
          run.err().startsWith("error: cannot read the kubeconfig " + config + ": "),
          run::toString);
      assertTrue(run.err().contains("(line "), run::toString);
      assertTrue(!run.err().contains("s3cr3t"), run::toString);
    }
  }

  @Test
  void anUnknownHostIsNamed() throws IOException {
    Path config = kubeconfig("https://capstan-no-such-host.invalid:6443");
    CliRun run = CliRun.capstan(config, "get", "gitrepo");
    assertEquals(1, run.exitCode(), run::toString);
    assertTrue(
        run.err()
            .startsWith(
                "error: cannot reach the cluster at https://capstan-no-such-host.invalid:6443/:"
                    + " unknown host capstan-no-such-host.invalid (is the cluster running?"),
        run::toString);
  }

  @Test
  void anApiServerWithoutTheCrdsSaysToInstallThem() throws IOException {
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", ClusterErrorsIT::withoutCapstanApis);
    server.start();
    try {
      Path config = kubeconfig("http://127.0.0.1:" + server.getAddress().getPort());
      CliRun get = CliRun.capstan(config, "get", "ks");
      assertEquals(1, get.exitCode(), get::toString);
      assertEquals(
          "error: the Kustomization API (kustomize.capstan.dev/v1) is not installed on this"
              + " cluster: install Capstan's CRDs with `kubectl apply -f deploy/crds`\n",
          get.err());
      CliRun reconcile = CliRun.capstan(config, "reconcile", "gitrepo", "repo");
      assertEquals(1, reconcile.exitCode(), reconcile::toString);
      assertTrue(
          reconcile
              .err()
              .startsWith(
                  "error: the GitRepository API (source.capstan.dev/v1) is not" + " installed"),
          reconcile::toString);
    } finally {
      server.stop(0);
    }
  }

  @Test
  void anUnreadableKubeconfigIsNamed() {
    CliRun run = CliRun.capstan(dir.resolve("missing"), "get", "ks");
    assertEquals(1, run.exitCode(), run::toString);
    assertEquals(
        "error: kubeconfig " + dir.resolve("missing") + " does not exist or cannot be read\n",
        run.err());
  }

  /** An API server that serves only the core group: discovery says so, everything else is 404. */
  private static void withoutCapstanApis(HttpExchange exchange) throws IOException {
    String path = exchange.getRequestURI().getPath();
    String body;
    int code = 200;
    if (path.equals("/api")) {
      body = "{\"kind\":\"APIVersions\",\"versions\":[\"v1\"],\"serverAddressByClientCIDRs\":[]}";
    } else if (path.equals("/apis")) {
      body = "{\"kind\":\"APIGroupList\",\"apiVersion\":\"v1\",\"groups\":[]}";
    } else {
      code = 404;
      body =
          "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"message\":\"the"
              + " server could not find the requested"
              + " resource\",\"reason\":\"NotFound\",\"code\":404}";
    }
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", "application/json");
    exchange.sendResponseHeaders(code, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }
}
