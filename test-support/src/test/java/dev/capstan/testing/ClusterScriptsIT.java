package dev.capstan.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * deploy/testcluster/up refuses bad conditions clearly and leaves nothing half-started; the scripts
 * never signal a process that is not theirs.
 */
class ClusterScriptsIT {

  @Test
  void upWithAPortInUseSaysWhichAndLeavesNothingRunning(@TempDir Path runDir) throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      int port = taken.getLocalPort();
      Result result =
          run(
              runDir,
              List.of(
                  "CAPSTAN_APISERVER_PORT=" + port,
                  "CAPSTAN_ETCD_PORT=" + freeEtcdPorts(),
                  "CAPSTAN_KCM_PORT=" + freePort(),
                  "CAPSTAN_SCHEDULER_PORT=" + freePort()));

      assertEquals(1, result.exit(), result.output());
      assertTrue(
          result.output().contains("port " + port + " on 127.0.0.1 is already in use"),
          result.output());
      assertFalse(result.output().contains("export KUBECONFIG"), result.output());
      assertFalse(processesMention(runDir), "a process of the refused cluster is still running");
    }
  }

  @Test
  void upWhoseBuildCannotDownloadSaysSoAndExitsNonZero(@TempDir Path runDir) throws Exception {
    Result result =
        run(
            runDir,
            List.of(
                "CAPSTAN_CACHE=" + runDir.resolve("cache"),
                "GOMODCACHE=" + runDir.resolve("gomod"),
                "GOPROXY=off",
                "CAPSTAN_APISERVER_PORT=" + freePort(),
                "CAPSTAN_ETCD_PORT=" + freeEtcdPorts(),
                "CAPSTAN_KCM_PORT=" + freePort(),
                "CAPSTAN_SCHEDULER_PORT=" + freePort()));

    assertEquals(1, result.exit(), result.output());
    assertTrue(result.output().contains("building kubernetes failed"), result.output());
    assertTrue(
        result.output().contains("building the control plane binaries failed"), result.output());
    assertFalse(processesMention(runDir), "a process of the failed cluster is still running");
  }

  @Test
  void pidFilesLeftFromAnEarlierMachineNameOtherProcessesThatTheScriptsLeaveAlone(
      @TempDir Path runDir) throws Exception {
    Process bystander = new ProcessBuilder("sleep", "300").start();
    try {
      Path pids = Files.createDirectories(runDir.resolve("cluster/pids"));
      for (String component :
          List.of("etcd", "kube-apiserver", "kube-controller-manager", "kube-scheduler", "kwok")) {
        Files.writeString(pids.resolve(component + ".pid"), bystander.pid() + "\n");
      }
      try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
        Result up =
            run(
                runDir,
                "deploy/testcluster/up",
                List.of(
                    "CAPSTAN_APISERVER_PORT=" + taken.getLocalPort(),
                    "CAPSTAN_ETCD_PORT=" + freeEtcdPorts(),
                    "CAPSTAN_KCM_PORT=" + freePort(),
                    "CAPSTAN_SCHEDULER_PORT=" + freePort()));
        assertEquals(1, up.exit(), up.output());
      }
      assertTrue(bystander.isAlive(), "up signalled a process that a stale pid file named");

      for (String component : List.of("etcd", "kube-apiserver")) {
        Files.writeString(pids.resolve(component + ".pid"), bystander.pid() + "\n");
      }
      Result down = run(runDir, "deploy/testcluster/down", List.of());
      assertEquals(0, down.exit(), down.output());
      assertTrue(bystander.isAlive(), "down signalled a process that a stale pid file named");
      assertFalse(Files.exists(runDir.resolve("cluster")), down.output());
    } finally {
      bystander.destroyForcibly();
    }
  }

  @Test
  void demoStopLeavesAloneTheProcessesThatStalePidFilesName(@TempDir Path runDir) throws Exception {
    Process bystander = new ProcessBuilder("sleep", "300").start();
    try {
      Path demo = Files.createDirectories(runDir.resolve("demo"));
      Files.writeString(demo.resolve("engine.pid"), bystander.pid() + "\n");
      Files.writeString(demo.resolve("git-server.pid"), bystander.pid() + "\n");

      Result stop = run(runDir, "deploy/demo", List.of("CAPSTAN_DEMO_DIR=" + demo), "--stop");

      assertEquals(0, stop.exit(), stop.output());
      assertTrue(
          bystander.isAlive(), "the demo's --stop signalled a process that a stale pid file named");
      assertFalse(stop.output().contains("stopped the"), stop.output());
      assertFalse(Files.exists(demo.resolve("engine.pid")), "the stale pid file is removed");
    } finally {
      bystander.destroyForcibly();
    }
  }

  @Test
  void aComponentThatExitsWhileStartingIsNamedWithItsStatusStartedOnceMoreAndNothingIsLeft(
      @TempDir Path runDir) throws Exception {
    Path cache = cacheWithAnApiServer(runDir.resolve("cache"), "exit 7");

    Result result =
        run(
            runDir,
            List.of(
                "CAPSTAN_CACHE=" + cache,
                "CAPSTAN_APISERVER_PORT=" + freePort(),
                "CAPSTAN_ETCD_PORT=" + freeEtcdPorts(),
                "CAPSTAN_KCM_PORT=" + freePort(),
                "CAPSTAN_SCHEDULER_PORT=" + freePort()));

    assertEquals(1, result.exit(), result.output());
    String named = "kube-apiserver exited during start: exit status 7";
    assertEquals(2, result.output().split(named, -1).length - 1, result.output());
    assertTrue(result.output().contains("starting everything afresh once more"), result.output());
    assertEquals(2, Files.readAllLines(cache.resolve("apiserver-starts")).size());
    assertTrue(
        Files.exists(runDir.resolve("cluster.failed-start/kube-apiserver.log")),
        "the first start's logs are kept");
    assertFalse(result.output().contains("export KUBECONFIG"), result.output());
    assertFalse(processesMention(runDir), "a process of the failed cluster is still running");
  }

  @Test
  void aStartThatFailsOnceIsStartedAfreshAndWhatItStartedHoldsNoLock(@TempDir Path runDir)
      throws Exception {
    Path cache =
        cacheWithAnApiServer(
            runDir.resolve("cache"),
            "[ -f \"$STARTS.1\" ] && exec -a \"$0\" \"$REAL\" \"$@\"\ntouch \"$STARTS.1\"\nexit 7");
    List<String> env =
        List.of(
            "CAPSTAN_CACHE=" + cache,
            "CAPSTAN_TESTCLUSTER_NODES=1",
            "CAPSTAN_APISERVER_PORT=" + freePort(),
            "CAPSTAN_ETCD_PORT=" + freeEtcdPorts(),
            "CAPSTAN_KCM_PORT=" + freePort(),
            "CAPSTAN_SCHEDULER_PORT=" + freePort());
    try {
      Result up = run(runDir, env);

      assertEquals(0, up.exit(), up.output());
      String named = "kube-apiserver exited during start: exit status 7";
      assertEquals(1, up.output().split(named, -1).length - 1, up.output());
      assertTrue(up.output().contains("export KUBECONFIG"), up.output());
      Process probe =
          new ProcessBuilder("flock", "-n", runDir.resolve("cluster.lock").toString(), "true")
              .start();
      assertTrue(probe.waitFor(30, TimeUnit.SECONDS));
      assertEquals(0, probe.exitValue(), "a component of the running plane holds the lock");
    } finally {
      Result down = run(runDir, "deploy/testcluster/down", env);
      assertEquals(0, down.exit(), down.output());
    }
    assertFalse(processesMention(runDir), "down left a component running");
  }

  @Test
  void downWaitsForAnUpOrDownOfTheSameStateInProgress(@TempDir Path runDir) throws Exception {
    Path lock = runDir.resolve("cluster.lock");
    Path held = runDir.resolve("held");
    Path released = runDir.resolve("released");
    Process holder =
        new ProcessBuilder(
                "flock",
                lock.toString(),
                "sh",
                "-c",
                "touch " + held + "; sleep 2; touch " + released)
            .start();
    try {
      for (int i = 0; i < 200 && !Files.exists(held); i++) {
        Thread.sleep(50);
      }
      assertTrue(Files.exists(held), "the stand-in for a running up never took the lock");

      Result down = run(runDir, "deploy/testcluster/down", List.of());

      assertEquals(0, down.exit(), down.output());
      assertTrue(Files.exists(released), "down ran while another script held the state's lock");
    } finally {
      holder.destroyForcibly();
    }
  }

  /**
   * A copy of the built control plane's cache whose binaries are the real ones but for
   * kube-apiserver, a bash script that counts its starts (a line each in {@code apiserver-starts})
   * and then runs {@code body}, in which {@code $REAL} is the real kube-apiserver and {@code
   * $STARTS} the count's file.
   */
  private static Path cacheWithAnApiServer(Path cache, String body) throws Exception {
    Result build = run(cache.getParent(), "deploy/testcluster/build", List.of());
    assertEquals(0, build.exit(), build.output());
    String configured = System.getenv("CAPSTAN_CACHE");
    Path real =
        configured == null || configured.isBlank()
            ? Path.of(System.getProperty("user.home"), ".cache", "capstan")
            : Path.of(configured);
    Path bin = Files.createDirectories(cache.resolve("bin"));
    try (var built = Files.list(real.resolve("bin"))) {
      for (Path file : (Iterable<Path>) built::iterator) {
        Files.createSymbolicLink(bin.resolve(file.getFileName()), file);
      }
    }
    try (var top = Files.list(real)) {
      for (Path file : (Iterable<Path>) top::iterator) {
        if (file.getFileName().toString().contains("kwok-stages")) {
          Files.copy(file, cache.resolve(file.getFileName()));
        }
      }
    }
    Path apiServer = bin.resolve("kube-apiserver");
    Path realServer = Files.readSymbolicLink(apiServer);
    Files.delete(apiServer);
    Files.writeString(
        apiServer,
        "#!/bin/bash\nREAL='"
            + realServer
            + "'\nSTARTS='"
            + cache.resolve("apiserver-starts")
            + "'\necho started >> \"$STARTS\"\n"
            + body
            + "\n");
    assertTrue(apiServer.toFile().setExecutable(true));
    return cache;
  }

  /** The ports handed out here, etcd's peer ports with them: none is handed out twice. */
  private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();

  private static int freePort() throws IOException {
    for (int attempt = 0; attempt < 100; attempt++) {
      try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
        if (HANDED_OUT.add(socket.getLocalPort())) {
          return socket.getLocalPort();
        }
      }
    }
    throw new IOException("no free port on 127.0.0.1 that was not handed out before");
  }

  /**
   * A free port whose next one is free too: etcd listens for clients on the first and for peers on
   * the second, and an ephemeral port taken by any other socket there made its start fail.
   */
  private static int freeEtcdPorts() throws IOException {
    for (int attempt = 0; attempt < 100; attempt++) {
      try (ServerSocket first = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
        int port = first.getLocalPort();
        if (port < 65535
            && !HANDED_OUT.contains(port)
            && !HANDED_OUT.contains(port + 1)
            && free(port + 1)) {
          HANDED_OUT.add(port);
          HANDED_OUT.add(port + 1);
          return port;
        }
      }
    }
    throw new IOException("no two free ports in a row on 127.0.0.1");
  }

  private static boolean free(int port) {
    try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
      return true;
    } catch (IOException taken) {
      return false;
    }
  }

  private record Result(int exit, String output) {}

  private static Result run(Path runDir, List<String> env) throws Exception {
    return run(runDir, "deploy/testcluster/up", env);
  }

  /**
   * Runs a script of the repository with its cluster state in runDir, never the shared cluster's.
   */
  private static Result run(Path runDir, String script, List<String> env, String... args)
      throws Exception {
    List<String> command = new ArrayList<>(List.of(RepoRoot.find().resolve(script).toString()));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().put("CAPSTAN_TESTCLUSTER_DIR", runDir.resolve("cluster").toString());
    for (String pair : env) {
      String[] kv = pair.split("=", 2);
      builder.environment().put(kv[0], kv[1]);
    }
    Process process = builder.start();
    process.getOutputStream().close();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(30, TimeUnit.MINUTES), script + " did not finish");
    return new Result(process.exitValue(), output);
  }

  private static boolean processesMention(Path runDir) throws IOException {
    try (var procs = Files.list(Path.of("/proc"))) {
      return procs
          .filter(p -> p.getFileName().toString().matches("\\d+"))
          .anyMatch(
              p -> {
                try {
                  return new String(
                          Files.readAllBytes(p.resolve("cmdline")), StandardCharsets.UTF_8)
                      .contains(runDir.toString());
                } catch (IOException e) {
                  return false;
                }
              });
    }
  }
}
