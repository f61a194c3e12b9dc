package dev.capstan.cli.migrate;

import dev.capstan.testing.RepoRoot;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Flux's source-controller with kustomize-controller or helm-controller, built by {@code
 * deploy/flux/build} (which also installs their CRDs), run as local processes against the cluster
 * of a kubeconfig. They watch only one namespace (their runtime namespace), elect no leader and
 * send no events.
 */
final class FluxControllers implements AutoCloseable {

  private final List<Process> processes = new ArrayList<>();

  private FluxControllers() {}

  /** Whether Go is there to build the controllers with. */
  static boolean goInstalled() {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
      if (Files.isExecutable(Path.of(dir, "go"))) {
        return true;
      }
    }
    return false;
  }

  /** Builds the controllers if needed, installs Flux's CRDs, and returns the binaries' folder. */
  static Path build(Path kubeconfig) throws IOException, InterruptedException {
    Path script = RepoRoot.find().resolve("deploy/flux/build");
    ProcessBuilder builder =
        new ProcessBuilder(script.toString(), "--crds").redirectErrorStream(true);
    builder.environment().put("KUBECONFIG", kubeconfig.toString());
    Process process = builder.start();
    process.getOutputStream().close();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (process.waitFor() != 0) {
      throw new IllegalStateException(script + " failed:\n" + output);
    }
    List<String> lines = output.lines().toList();
    return Path.of(lines.get(lines.size() - 1));
  }

  /** source-controller and kustomize-controller. */
  static FluxControllers start(Path bin, Path kubeconfig, String namespace, Path work)
      throws IOException, InterruptedException {
    FluxControllers flux = new FluxControllers();
    int sourceHealth = flux.startSource(bin, kubeconfig, namespace, work);
    int kustomizeHealth = freePort();
    flux.start(
        work,
        kubeconfig,
        namespace,
        bin.resolve("kustomize-controller"),
        // a Kustomization whose dependency is not Ready yet is looked at again every 2 s rather
        // than Flux's default 30 s: the test's chain of three is Ready in seconds, not a minute
        "--requeue-dependency=2s",
        "--metrics-addr=127.0.0.1:" + freePort(),
        "--health-addr=127.0.0.1:" + kustomizeHealth);
    for (int port : List.of(sourceHealth, kustomizeHealth)) {
      awaitReady(port);
    }
    return flux;
  }

  /** source-controller and helm-controller. */
  static FluxControllers startForHelm(Path bin, Path kubeconfig, String namespace, Path work)
      throws IOException, InterruptedException {
    FluxControllers flux = new FluxControllers();
    int sourceHealth = flux.startSource(bin, kubeconfig, namespace, work);
    int helmHealth = freePort();
    flux.start(
        work,
        kubeconfig,
        namespace,
        bin.resolve("helm-controller"),
        "--requeue-dependency=2s",
        "--metrics-addr=127.0.0.1:" + freePort(),
        "--health-addr=127.0.0.1:" + helmHealth);
    for (int port : List.of(sourceHealth, helmHealth)) {
      awaitReady(port);
    }
    return flux;
  }

  /** Starts source-controller; returns its health port. */
  private int startSource(Path bin, Path kubeconfig, String namespace, Path work)
      throws IOException {
    int storage = freePort();
    int health = freePort();
    Files.createDirectories(work.resolve("storage"));
    Files.createDirectories(work.resolve("tmp"));
    start(
        work,
        kubeconfig,
        namespace,
        bin.resolve("source-controller"),
        "--storage-path=" + work.resolve("storage"),
        "--storage-addr=127.0.0.1:" + storage,
        "--storage-adv-addr=127.0.0.1:" + storage,
        "--metrics-addr=127.0.0.1:" + freePort(),
        "--health-addr=127.0.0.1:" + health);
    return health;
  }

  private void start(Path work, Path kubeconfig, String namespace, Path binary, String... flags)
      throws IOException {
    List<String> command = new ArrayList<>(List.of(binary.toString()));
    command.addAll(List.of(flags));
    command.add("--watch-all-namespaces=false");
    command.add("--enable-leader-election=false");
    command.add("--events-addr=");
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.redirectOutput(work.resolve(binary.getFileName() + ".log").toFile());
    builder.environment().put("KUBECONFIG", kubeconfig.toString());
    builder.environment().put("RUNTIME_NAMESPACE", namespace);
    // kustomize-controller and helm-controller unpack artifacts under TMPDIR; the test's own
    // folder keeps it apart
    builder.environment().put("TMPDIR", work.resolve("tmp").toString());
    processes.add(builder.start());
  }

  private static void awaitReady(int port) throws InterruptedException {
    HttpClient http = HttpClient.newHttpClient();
    Instant deadline = Instant.now().plus(Duration.ofMinutes(1));
    while (Instant.now().isBefore(deadline)) {
      try {
        HttpResponse<Void> response =
            http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/readyz")).build(),
                HttpResponse.BodyHandlers.discarding());
        if (response.statusCode() == 200) {
          return;
        }
      } catch (IOException e) {
        // not listening yet
      }
      Thread.sleep(300);
    }
    throw new IllegalStateException("a Flux controller is not ready on port " + port);
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  /** Stops the controllers and waits until they are gone. */
  @Override
  public void close() throws InterruptedException {
    for (Process process : processes) {
      process.destroy();
    }
    for (Process process : processes) {
      if (!process.waitFor(20, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor();
      }
    }
    processes.clear();
  }
}
