package dev.capstan.cli.install;

import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.source.GitRepository;
import dev.capstan.testing.Finalizers;
import dev.capstan.testing.RepoRoot;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The real capstan jar running {@code capstan run} as a separate process, as a pod would. */
public final class CapstanProcess implements AutoCloseable {
  /** The namespace each process runs as in (its POD_NAMESPACE): its Leases are there. */
  public static final String NAMESPACE = InstallIT.SYSTEM;

  private final Process process;
  private final Path log;
  private final int metricsPort;
  private final int webhookPort;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  private CapstanProcess(Process process, Path log, int metricsPort, int webhookPort) {
    this.process = process;
    this.log = log;
    this.metricsPort = metricsPort;
    this.webhookPort = webhookPort;
  }

  /** Starts {@code capstan run} with the kubeconfig, as pod {@code podName} of capstan-system. */
  public static CapstanProcess start(
      Path kubeconfig, Path workDir, String podName, List<String> extraArgs) throws IOException {
    return start(kubeconfig, workDir, podName, List.of("-Xmx256m"), extraArgs);
  }

  /** As {@link #start(Path, Path, String, List)}, with the JVM's options. */
  public static CapstanProcess start(
      Path kubeconfig, Path workDir, String podName, List<String> jvmArgs, List<String> extraArgs)
      throws IOException {
    Path jar = RepoRoot.find().resolve("cli/target/capstan.jar");
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException(jar + " is missing: run mvn package first");
    }
    int[] ports = freePorts(2);
    int metricsPort = ports[0];
    int webhookPort = ports[1];
    List<String> command =
        new ArrayList<>(
            List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    command.addAll(jvmArgs);
    command.addAll(
        List.of(
            "-jar",
            jar.toString(),
            "run",
            "--kubeconfig",
            kubeconfig.toString(),
            "--metrics-addr",
            "127.0.0.1:" + metricsPort,
            "--webhook-addr",
            "127.0.0.1:" + webhookPort,
            "--storage-path",
            workDir.resolve(podName + "-artifacts").toString()));
    command.addAll(extraArgs);
    // Logs are kept under target/ for a look after a failure; the work directory is removed.
    Path logs = Files.createDirectories(RepoRoot.find().resolve("cli/target/engine-process-logs"));
    Path log = logs.resolve(podName + "-" + System.currentTimeMillis() + ".log");
    ProcessBuilder builder =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
    builder.environment().put("POD_NAMESPACE", NAMESPACE);
    builder.environment().put("POD_NAME", podName);
    builder.environment().remove("KUBECONFIG");
    return new CapstanProcess(builder.start(), log, metricsPort, webhookPort);
  }

  /**
   * Distinct free ports: every socket stays open until all are chosen, so none is handed out twice.
   */
  private static int[] freePorts(int count) throws IOException {
    List<ServerSocket> sockets = new ArrayList<>();
    try {
      int[] ports = new int[count];
      for (int i = 0; i < count; i++) {
        ServerSocket socket = new ServerSocket(0);
        sockets.add(socket);
        ports[i] = socket.getLocalPort();
      }
      return ports;
    } finally {
      for (ServerSocket socket : sockets) {
        socket.close();
      }
    }
  }

  int webhookPort() {
    return webhookPort;
  }

  public long pid() {
    return process.pid();
  }

  /** The engine's log file. */
  public Path log() {
    return log;
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  /** Status code and body of a GET on the metrics address, or 0 while nothing listens. */
  HttpResponse<String> get(String path) {
    try {
      return http.send(
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + metricsPort + path))
              .timeout(Duration.ofSeconds(5))
              .build(),
          HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }

  int status(String path) {
    HttpResponse<String> response = get(path);
    return response == null ? 0 : response.statusCode();
  }

  /** POSTs a webhook to the receiver address, with an X-Signature header unless null. */
  HttpResponse<String> postWebhook(String path, byte[] body, String signature) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + webhookPort + path))
            .timeout(Duration.ofSeconds(10))
            .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    if (signature != null) {
      request.header("X-Signature", signature);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** The end of the process's log, for failure messages. */
  public String logTail() {
    try {
      List<String> lines =
          Files.readAllLines(log).stream().filter(l -> !l.contains(" DEBUG ")).toList();
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }

  /** SIGKILL: the process gets no chance to give up its Lease. */
  public void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(30, TimeUnit.SECONDS);
  }

  /** Waits up to {@code timeout} for the process to end; true if it did. */
  public boolean waitFor(long timeout, TimeUnit unit) throws InterruptedException {
    return process.waitFor(timeout, unit);
  }

  /** SIGTERM and wait; true if it exited in time. */
  boolean stop() throws InterruptedException {
    process.destroy();
    return process.waitFor(30, TimeUnit.SECONDS);
  }

  /**
   * Stops {@code engines}, then releases the Kustomizations and GitRepositories of {@code
   * namespace} from their finalizers: no engine is left to run them, and the namespace must be able
   * to go.
   */
  public static void stopAll(List<CapstanProcess> engines, KubernetesClient admin, String namespace)
      throws InterruptedException {
    InterruptedException interrupted = null;
    for (CapstanProcess engine : engines) {
      try {
        if (interrupted == null) {
          engine.close();
          continue;
        }
      } catch (InterruptedException e) {
        interrupted = e;
      }
      engine.process.destroyForcibly(); // no waiting once interrupted, but none left running
    }
    if (interrupted != null) {
      throw interrupted;
    }
    for (Class<? extends HasMetadata> type : List.of(Kustomization.class, GitRepository.class)) {
      for (HasMetadata item : admin.resources(type).inNamespace(namespace).list().getItems()) {
        Finalizers.clear(
            admin.resources(type).inNamespace(namespace).withName(item.getMetadata().getName()));
      }
    }
  }

  @Override
  public void close() throws InterruptedException {
    if (process.isAlive() && !stop()) {
      kill();
    }
  }
}
