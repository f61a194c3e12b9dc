package dev.capstan.cli.faults;

import dev.capstan.testing.RepoRoot;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The local control plane's processes (deploy/testcluster), found from its state directory (the one
 * that holds the admin kubeconfig): the API server restarted by {@code restart-apiserver}, paused
 * with SIGSTOP, and etcd compacted through its JSON gateway.
 */
public final class ControlPlane {
  private static final Pattern REVISION = Pattern.compile("\"revision\":\"?(\\d+)");
  private static final Pattern CLIENT_URL =
      Pattern.compile("--listen-client-urls=(http://[^,\\s]+)");
  private final Path stateDir;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  /** The control plane whose admin kubeconfig is {@code kubeconfig}. */
  public ControlPlane(Path kubeconfig) {
    this.stateDir = kubeconfig.toAbsolutePath().getParent();
  }

  /** Whether this is a local control plane of deploy/testcluster (its API server's pid file). */
  public boolean isLocal() {
    return Files.isRegularFile(stateDir.resolve("pids/kube-apiserver.pid"));
  }

  /**
   * The audit log the API server writes, if it was started with one ({@code CAPSTAN_AUDIT_LOG}:
   * {@code up} records it in the state directory's {@code trust} file).
   */
  public Optional<Path> auditLog() throws IOException {
    Path trust = stateDir.resolve("trust");
    if (!Files.isRegularFile(trust)) {
      return Optional.empty();
    }
    return Files.readAllLines(trust).stream()
        .filter(l -> l.startsWith("audit-log="))
        .map(l -> Path.of(l.substring("audit-log=".length())))
        .filter(Files::isRegularFile)
        .findFirst();
  }

  /**
   * Restarts the API server, down for {@code downSeconds}, and waits until it is ready again. A
   * restart that hangs is killed and run once more, so the shared plane is not left down.
   */
  public void restartApiServer(int downSeconds) throws IOException, InterruptedException {
    String first = restartOnce(downSeconds);
    if (first != null && restartOnce(downSeconds) != null) {
      throw new IllegalStateException("restart-apiserver failed twice: " + first);
    }
  }

  /** One run of restart-apiserver: null when it succeeded, else what it printed. */
  private String restartOnce(int downSeconds) throws IOException, InterruptedException {
    Path log = Files.createTempFile("restart-apiserver", ".log");
    ProcessBuilder restart =
        new ProcessBuilder(
                RepoRoot.find().resolve("deploy/testcluster/restart-apiserver").toString(),
                Integer.toString(downSeconds))
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    restart.environment().put("CAPSTAN_TESTCLUSTER_DIR", stateDir.toString());
    Process process = restart.start();
    if (!process.waitFor(3, TimeUnit.MINUTES)) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      return "timed out after 3 minutes: " + Files.readString(log);
    }
    return process.exitValue() == 0 ? null : Files.readString(log);
  }

  /**
   * SIGSTOP of the API server for {@code pause}, then SIGCONT (always, even when interrupted). A
   * detached watchdog in its own session sends SIGCONT 5 s after the pause should have ended, so a
   * JVM killed meanwhile does not leave the shared API server stopped.
   */
  public void pauseApiServer(Duration pause) throws IOException, InterruptedException {
    long pid = pid("kube-apiserver");
    startWatchdog(pid, pause.toSeconds() + 5);
    signal("STOP", pid);
    try {
      Thread.sleep(pause.toMillis());
    } finally {
      signal("CONT", pid);
    }
  }

  /** Starts {@code sleep N; kill -CONT pid} in a new session, outliving this JVM and its group. */
  static void startWatchdog(long pid, long afterSeconds) throws IOException {
    new ProcessBuilder("setsid", "-f", "nohup", "sh", "-c", watchdogScript(pid, afterSeconds))
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .redirectError(ProcessBuilder.Redirect.DISCARD)
        .start();
  }

  static String watchdogScript(long pid, long afterSeconds) {
    return "sleep " + afterSeconds + "; kill -CONT " + pid;
  }

  /**
   * Waits until the API server answers {@code /readyz} (at most {@code atMost}); whether it did.
   * The fault tests that disturb the shared plane end with it, so the next test finds it ready.
   */
  public static boolean awaitReady(KubernetesClient admin, Duration atMost)
      throws InterruptedException {
    long deadline = System.nanoTime() + atMost.toNanos();
    while (true) {
      try {
        if ("ok".equals(admin.raw(admin.getMasterUrl() + "readyz"))) {
          return true;
        }
      } catch (KubernetesClientException e) {
        // not ready yet (or paused): ask again
      }
      if (System.nanoTime() > deadline) {
        return false;
      }
      Thread.sleep(1000);
    }
  }

  /** Compacts etcd at its current revision: every older revision is gone; returns it. */
  public long compactEtcd() throws IOException, InterruptedException {
    String cmdline = cmdline(pid("etcd"));
    Matcher url = CLIENT_URL.matcher(cmdline);
    if (!url.find()) {
      throw new IllegalStateException("etcd's client URL is not in its command line");
    }
    // The key "/" (base64 "Lw=="): any range answers with the store's current revision.
    Matcher revision = REVISION.matcher(post(url.group(1) + "/v3/kv/range", "{\"key\":\"Lw==\"}"));
    if (!revision.find()) {
      throw new IllegalStateException("etcd answered no revision");
    }
    long current = Long.parseLong(revision.group(1));
    post(
        url.group(1) + "/v3/kv/compaction", "{\"revision\":\"" + current + "\",\"physical\":true}");
    return current;
  }

  private String post(String url, String body) throws IOException, InterruptedException {
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofSeconds(30))
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw new IllegalStateException(url + " answered " + response.statusCode());
    }
    return response.body();
  }

  /** The pid of component {@code name}, checked to be that component of this control plane. */
  private long pid(String name) throws IOException {
    long pid = Long.parseLong(Files.readString(stateDir.resolve("pids/" + name + ".pid")).trim());
    String cmdline = cmdline(pid);
    if (!cmdline.contains("/" + name + " ") || !cmdline.contains(stateDir.toString())) {
      throw new IllegalStateException(name + " of " + stateDir + " is not running");
    }
    return pid;
  }

  private static String cmdline(long pid) throws IOException {
    return new String(
            Files.readAllBytes(Path.of("/proc/" + pid + "/cmdline")), StandardCharsets.UTF_8)
        .replace('\0', ' ');
  }

  private static void signal(String signal, long pid) throws IOException, InterruptedException {
    Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).start();
    if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
      throw new IllegalStateException("kill -" + signal + " " + pid + " failed");
    }
  }
}
