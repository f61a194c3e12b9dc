import dev.capstan.source.helm.IndexServer;
import dev.capstan.source.helm.TestCharts;
import dev.capstan.testing.CapstanCrds;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ListOptions;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;

/**
 * N HelmReleases of podinfo's chart (served by a HelmRepository from a local HTTP index), side by
 * side: Capstan's real engine process ({@code java -jar cli/target/capstan.jar run}) and Flux's
 * source-controller v1.9.0 with helm-controller v1.6.0 as local processes (built by
 * deploy/flux/build), each in its own namespace of the cluster of $KUBECONFIG. For each side: the
 * time from the first HelmRelease created until all are Ready=True (counted from an informer), the
 * peak RSS; then, with the releases unchanged and reconciled every 10 s, a window in which the
 * writes (resourceVersion changes of the HelmReleases and of the release Secrets, from a watch),
 * the chart renders and the reconciles (from the metrics endpoint) are counted, and the CPU per
 * no-op reconcile (process CPU over the window minus an idle window of the same length with the
 * interval raised to 1 h). Run with engine/bench/helmreleases.sh N.
 */
public class HelmReleaseBench {
  static final String SELECT = "capstan.dev/bench-shard";
  static final String RECORD = "sh.helm.release.v1.";
  static final long TICKS = clockTicks();
  static KubernetesClient client;
  static String run;
  static long windowSeconds;

  /** One side's processes and the figures read from them. */
  record Side(
      String name,
      String ns,
      String api,
      Process main,
      List<Process> all,
      String metrics,
      Pattern reconciles,
      Pattern renders) {}

  /**
   * @param peakKib the peak of the side's RSS summed every 100 ms (its processes and descendants)
   * @param mainPeakKib the VmHWM of the engine, or of helm-controller
   * @param hwmSumKib the VmHWM of the side's own processes summed (workers not included)
   */
  record Readiness(double seconds, long peakKib, long mainPeakKib, long hwmSumKib) {}

  record NoOp(
      int reconciles,
      int renders,
      int releaseWrites,
      int recordWrites,
      double busyCpuMs,
      double idleCpuMs) {
    double cpuMsPerReconcile() {
      return reconciles == 0 ? Double.NaN : Math.max(0, busyCpuMs - idleCpuMs) / reconciles;
    }
  }

  public static void main(String[] args) throws Exception {
    int n = Integer.parseInt(args[0]);
    Path jar = Path.of(args[1]);
    List<String> jvmFlags = List.of(args[2].trim().split("\\s+"));
    Path fluxBin = Path.of(args[3]);
    Path chart = Path.of(args[4]);
    windowSeconds = Long.getLong("capstan.bench.windowSeconds", 60);
    client = new KubernetesClientBuilder().build();
    CapstanCrds.install(client);
    run = "hr" + Long.toHexString(System.nanoTime());
    System.out.printf("load average before: %s%n", loadAverage());
    byte[] tgz = tgz(chart);
    try (IndexServer served = IndexServer.http()) {
      served.serveFile("podinfo-1.0.0.tgz", tgz);
      served.serve(
          TestCharts.index("podinfo", Map.of("1.0.0", tgz)).getBytes(StandardCharsets.UTF_8));
      Side capstan = startCapstan(jar, jvmFlags);
      Readiness capstanReady;
      NoOp capstanNoOp;
      try {
        capstanReady = ready(capstan, n, served.url());
        capstanNoOp = noOp(capstan);
      } finally {
        cleanUp(capstan);
      }
      if (Boolean.getBoolean("capstan.bench.capstanOnly")) {
        // a look at the engine alone (after a change to it): no goal is judged without Flux
        System.out.printf(
            "Capstan only: %d Ready in %.1f s, peak RSS %d MiB; no-op %s, %.2f ms per reconcile%n",
            n,
            capstanReady.seconds(),
            capstanReady.peakKib() / 1024,
            capstanNoOp,
            capstanNoOp.cpuMsPerReconcile());
        return;
      }
      Side flux = startFlux(fluxBin);
      Readiness fluxReady;
      NoOp fluxNoOp;
      try {
        fluxReady = ready(flux, n, served.url());
        fluxNoOp = noOp(flux);
      } finally {
        cleanUp(flux);
      }
      report(n, capstanReady, capstanNoOp, fluxReady, fluxNoOp);
    } finally {
      client.close();
    }
  }

  static void report(int n, Readiness c, NoOp cn, Readiness f, NoOp fn) {
    boolean timeMet = c.seconds() <= f.seconds() / 2;
    boolean memoryMet = c.peakKib() <= f.peakKib();
    System.out.printf(
        "RESULT ready: %d HelmReleases of podinfo all Ready: Capstan %.1f s, Flux helm-controller"
            + " v1.6 %.1f s (%.0f%% of it; goal <= 50%%: %s); peak RSS summed every 100 ms:"
            + " Capstan %d MiB (engine and chart workers; the engine's VmHWM %d MiB), Flux %d MiB"
            + " (helm-controller and source-controller; VmHWM helm-controller %d MiB, both %d MiB)"
            + " (goal <= Flux's: %s); load average %s%n",
        n,
        c.seconds(),
        f.seconds(),
        100 * c.seconds() / f.seconds(),
        timeMet ? "met" : "not met",
        c.peakKib() / 1024,
        c.mainPeakKib() / 1024,
        f.peakKib() / 1024,
        f.mainPeakKib() / 1024,
        f.hwmSumKib() / 1024,
        memoryMet ? "met" : "not met",
        loadAverage());
    boolean noOpMet =
        cn.releaseWrites() + cn.recordWrites() == 0
            && cn.renders() == 0
            && cn.reconciles() > 0
            && cn.cpuMsPerReconcile() <= 5;
    System.out.printf(
        "RESULT no-op: %d unchanged Ready HelmReleases at interval 10s for %d s: Capstan %d"
            + " reconciles, %d HelmRelease writes, %d release Secret writes, %d renders, %.2f ms"
            + " engine CPU per reconcile (%.0f ms busy - %.0f ms idle); Flux helm-controller %d"
            + " reconciles, %d HelmRelease writes, %d release Secret writes, renders not counted,"
            + " %.2f ms CPU per reconcile (%.0f ms - %.0f ms) (goal 0 writes, 0 renders, <= 5 ms:"
            + " %s); load average %s%n",
        n,
        windowSeconds,
        cn.reconciles(),
        cn.releaseWrites(),
        cn.recordWrites(),
        cn.renders(),
        cn.cpuMsPerReconcile(),
        cn.busyCpuMs(),
        cn.idleCpuMs(),
        fn.reconciles(),
        fn.releaseWrites(),
        fn.recordWrites(),
        fn.cpuMsPerReconcile(),
        fn.busyCpuMs(),
        fn.idleCpuMs(),
        noOpMet ? "met" : "not met",
        loadAverage());
  }

  static Side startCapstan(Path jar, List<String> jvmFlags) throws Exception {
    String ns = namespace("capstan");
    String metrics = "127.0.0.1:" + freePort();
    List<String> command = new ArrayList<>(List.of("java"));
    command.addAll(jvmFlags);
    command.addAll(
        List.of(
            "-jar",
            jar.toString(),
            "run",
            "--watch-label-selector",
            SELECT + "=" + run,
            "--metrics-addr",
            metrics,
            "--webhook-addr",
            "127.0.0.1:" + freePort(),
            "--storage-path",
            Files.createTempDirectory("capstan-hr-bench").toString()));
    String more = System.getProperty("capstan.bench.engineArgs", "").trim();
    if (!more.isEmpty()) {
      command.addAll(List.of(more.split("\\s+")));
    }
    Path log = Files.createTempFile("capstan-hr-bench-engine", ".log");
    ProcessBuilder builder = new ProcessBuilder(command);
    // as deploy/install/engine/deployment.yaml runs it
    builder.environment().put("MALLOC_ARENA_MAX", "2");
    Process engine = builder.redirectErrorStream(true).redirectOutput(log.toFile()).start();
    System.out.println("Capstan: engine pid " + engine.pid() + ", log " + log);
    await(() -> contains(log, "capstan engine started"), 120, List.of(engine));
    return new Side(
        "Capstan",
        ns,
        "helm.capstan.dev/v2",
        engine,
        List.of(engine),
        metrics,
        Pattern.compile(
            "^capstan_reconcile_duration_seconds_count\\{[^}]*kind=\"HelmRelease\""
                + "[^}]*\\} ([0-9.eE+]+)$",
            Pattern.MULTILINE),
        Pattern.compile(
            "^capstan_chart_renders_total\\{kind=\"HelmRelease\",?\\} ([0-9.eE+]+)$",
            Pattern.MULTILINE));
  }

  /** source-controller and helm-controller watching only the Flux side's namespace. */
  static Side startFlux(Path bin) throws Exception {
    String ns = namespace("flux");
    Path work = Files.createTempDirectory("capstan-hr-bench-flux");
    Files.createDirectories(work.resolve("storage"));
    Files.createDirectories(work.resolve("tmp"));
    int storage = freePort();
    int sourceHealth = freePort();
    int helmHealth = freePort();
    String helmMetrics = "127.0.0.1:" + freePort();
    Process source =
        flux(
            work,
            ns,
            bin.resolve("source-controller"),
            "--storage-path=" + work.resolve("storage"),
            "--storage-addr=127.0.0.1:" + storage,
            "--storage-adv-addr=127.0.0.1:" + storage,
            "--metrics-addr=127.0.0.1:" + freePort(),
            "--health-addr=127.0.0.1:" + sourceHealth);
    Process helm =
        flux(
            work,
            ns,
            bin.resolve("helm-controller"),
            "--metrics-addr=" + helmMetrics,
            "--health-addr=127.0.0.1:" + helmHealth);
    List<Process> both = List.of(helm, source);
    System.out.println(
        "Flux: helm-controller pid "
            + helm.pid()
            + ", source-controller pid "
            + source.pid()
            + ", logs in "
            + work);
    for (int port : List.of(sourceHealth, helmHealth)) {
      await(() -> get("127.0.0.1:" + port, "/readyz") != null, 60, both);
    }
    return new Side(
        "Flux",
        ns,
        "helm.toolkit.fluxcd.io/v2",
        helm,
        both,
        helmMetrics,
        Pattern.compile(
            "^controller_runtime_reconcile_total\\{controller=\"helmrelease\""
                + "[^}]*\\} ([0-9.eE+]+)$",
            Pattern.MULTILINE),
        null);
  }

  static Process flux(Path work, String ns, Path binary, String... flags) throws IOException {
    List<String> command = new ArrayList<>(List.of(binary.toString()));
    command.addAll(List.of(flags));
    command.addAll(
        List.of(
            "--watch-all-namespaces=false", "--enable-leader-election=false", "--events-addr="));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.redirectOutput(work.resolve(binary.getFileName() + ".log").toFile());
    builder.environment().put("RUNTIME_NAMESPACE", ns);
    builder.environment().put("TMPDIR", work.resolve("tmp").toString());
    return builder.start();
  }

  /** Creates the HelmRepository and N HelmReleases; times them until all are Ready. */
  static Readiness ready(Side side, int n, String url) throws Exception {
    boolean capstan = side.name().equals("Capstan");
    String labels = capstan ? ", labels: {%s: %s}".formatted(SELECT, run) : "";
    create(
        (capstan ? "source.capstan.dev/v1" : "source.toolkit.fluxcd.io/v1")
            + "\nkind: HelmRepository\nmetadata: {name: charts, namespace: "
            + side.ns()
            + labels
            + "}\nspec: {url: \""
            + url
            + "\", interval: 10m}\n");
    SharedIndexInformer<GenericKubernetesResource> informer =
        releases(side)
            .inNamespace(side.ns())
            .inform(
                new ResourceEventHandler<>() {
                  @Override
                  public void onAdd(GenericKubernetesResource r) {}

                  @Override
                  public void onUpdate(GenericKubernetesResource o, GenericKubernetesResource r) {}

                  @Override
                  public void onDelete(GenericKubernetesResource r, boolean unknown) {}
                },
                0);
    Sampler rss = new Sampler(side);
    long start = System.nanoTime();
    ExecutorService creators = Executors.newFixedThreadPool(8);
    for (int i = 0; i < n; i++) {
      String yaml =
          side.api()
              + "\nkind: HelmRelease\nmetadata: {name: p"
              + i
              + ", namespace: "
              + side.ns()
              + labels
              + "}\nspec:\n  interval: 10s\n  chart:\n"
              + (capstan ? "    metadata: {labels: {%s: %s}}\n".formatted(SELECT, run) : "")
              + "    spec: {chart: podinfo, version: \"1.0.0\", interval: 10m,"
              + " sourceRef: {kind: HelmRepository, name: charts}}\n";
      creators.submit(() -> create(yaml));
    }
    creators.shutdown();
    creators.awaitTermination(10, TimeUnit.MINUTES);
    long limit = Long.getLong("capstan.bench.limitMinutes", 20) * 60;
    await(
        () -> {
          long ready =
              informer.getStore().list().stream().filter(HelmReleaseBench::isReady).count();
          System.out.printf(
              "%s %6.1f s: %d of %d Ready%n",
              side.name(), (System.nanoTime() - start) / 1e9, ready, n);
          return ready == n;
        },
        limit,
        side.all());
    double seconds = (System.nanoTime() - start) / 1e9;
    informer.close();
    rss.stop();
    Readiness result =
        new Readiness(
            seconds,
            rss.peakKib(),
            kib(side.main().pid(), "VmHWM"),
            side.all().stream().mapToLong(p -> kib(p.pid(), "VmHWM")).sum());
    System.out.printf(
        "%s: all %d Ready after %.1f s; peak RSS %d MiB, of %s alone %d MiB%n",
        side.name(),
        n,
        seconds,
        result.peakKib() / 1024,
        side.main().pid(),
        result.mainPeakKib() / 1024);
    return result;
  }

  /**
   * The releases left as they are, reconciled every 10 s: a settling pause, then the counted
   * window; then the interval raised to 1 h and the same window again, idle, for the process's own
   * background CPU (caches, collector, probes).
   */
  static NoOp noOp(Side side) throws Exception {
    Thread.sleep(20_000);
    AtomicInteger releaseWrites = new AtomicInteger();
    AtomicInteger recordWrites = new AtomicInteger();
    // From the resourceVersion of a list: a watch from none would replay every object as added.
    var releasesNow = releases(side).inNamespace(side.ns());
    Watch releases =
        releasesNow.watch(
            from(releasesNow.list().getMetadata().getResourceVersion()), counting(releaseWrites));
    var secrets = client.secrets().inNamespace(side.ns());
    Watch records =
        secrets.watch(
            from(secrets.list().getMetadata().getResourceVersion()),
            new Watcher<Secret>() {
              @Override
              public void eventReceived(Action action, Secret s) {
                if (s.getMetadata().getName().startsWith(RECORD)) {
                  recordWrites.incrementAndGet();
                }
              }

              @Override
              public void onClose(WatcherException e) {}
            });
    double reconcilesBefore = scrape(side, side.reconciles());
    double rendersBefore = side.renders() == null ? 0 : scrape(side, side.renders());
    long cpuBefore = cpuTicks(side.main());
    Thread.sleep(windowSeconds * 1000);
    long busy = cpuTicks(side.main()) - cpuBefore;
    int reconciles = (int) (scrape(side, side.reconciles()) - reconcilesBefore);
    int renders = side.renders() == null ? 0 : (int) (scrape(side, side.renders()) - rendersBefore);
    releases.close();
    records.close();
    // A merge patch without a resourceVersion: the controller may write the status meanwhile.
    for (GenericKubernetesResource r : releases(side).inNamespace(side.ns()).list().getItems()) {
      releases(side)
          .inNamespace(side.ns())
          .withName(r.getMetadata().getName())
          .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"interval\":\"1h\"}}");
    }
    Thread.sleep(20_000);
    long idleFrom = cpuTicks(side.main());
    Thread.sleep(windowSeconds * 1000);
    long idle = cpuTicks(side.main()) - idleFrom;
    NoOp result =
        new NoOp(
            reconciles,
            renders,
            releaseWrites.get(),
            recordWrites.get(),
            busy * 1000.0 / TICKS,
            idle * 1000.0 / TICKS);
    System.out.println(
        side.name() + ": " + result + ", " + result.cpuMsPerReconcile() + " ms per reconcile");
    return result;
  }

  static ListOptions from(String resourceVersion) {
    return new ListOptionsBuilder().withResourceVersion(resourceVersion).build();
  }

  static Watcher<GenericKubernetesResource> counting(AtomicInteger writes) {
    return new Watcher<>() {
      @Override
      public void eventReceived(Action action, GenericKubernetesResource r) {
        writes.incrementAndGet();
      }

      @Override
      public void onClose(WatcherException e) {}
    };
  }

  /** Deletes the HelmReleases (their controllers uninstall them), then stops the processes. */
  static void cleanUp(Side side) throws InterruptedException {
    try {
      releases(side).inNamespace(side.ns()).delete();
      await(
          () -> releases(side).inNamespace(side.ns()).list().getItems().isEmpty(), 600, side.all());
      // the sources too while their controller runs, so that no finalizer holds the namespace
      String sources =
          side.name().equals("Capstan") ? "source.capstan.dev/v1" : "source.toolkit.fluxcd.io/v1";
      for (String kind : List.of("HelmChart", "HelmRepository")) {
        var objects = client.genericKubernetesResources(sources, kind).inNamespace(side.ns());
        objects.delete();
        await(() -> objects.list().getItems().isEmpty(), 120, side.all());
      }
    } catch (RuntimeException e) {
      System.out.println(side.name() + ": deleting the HelmReleases: " + e.getMessage());
    }
    for (Process p : side.all()) {
      p.destroy();
      if (!p.waitFor(30, TimeUnit.SECONDS)) {
        p.destroyForcibly();
      }
    }
    client.namespaces().withName(side.ns()).delete();
  }

  static MixedOperation<
          GenericKubernetesResource,
          GenericKubernetesResourceList,
          Resource<GenericKubernetesResource>>
      releases(Side side) {
    return client.genericKubernetesResources(side.api(), "HelmRelease");
  }

  static boolean isReady(GenericKubernetesResource r) {
    Object status = r.getAdditionalProperties().get("status");
    if (!(status instanceof Map<?, ?> s) || !(s.get("conditions") instanceof List<?> conditions)) {
      return false;
    }
    return conditions.stream()
        .anyMatch(
            c ->
                c instanceof Map<?, ?> m
                    && "Ready".equals(m.get("type"))
                    && "True".equals(m.get("status")));
  }

  /** The sum of the samples {@code pattern} matches on the metrics endpoint. */
  static double scrape(Side side, Pattern pattern) {
    String text = get(side.metrics(), "/metrics");
    if (text == null) {
      throw new IllegalStateException(side.name() + "'s metrics are not served");
    }
    double sum = 0;
    Matcher m = pattern.matcher(text);
    while (m.find()) {
      sum += Double.parseDouble(m.group(1));
    }
    return sum;
  }

  static String get(String address, String path) {
    try {
      HttpResponse<String> response =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create("http://" + address + path)).build(),
                  HttpResponse.BodyHandlers.ofString());
      return response.statusCode() == 200 ? response.body() : null;
    } catch (IOException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }

  /** The CPU of a process and its descendants: user and system, the ended children's included. */
  static long cpuTicks(Process process) {
    long sum = stat(process.pid(), true);
    for (ProcessHandle child : (Iterable<ProcessHandle>) process.descendants()::iterator) {
      sum += stat(child.pid(), false);
    }
    return sum;
  }

  static long stat(long pid, boolean withChildren) {
    try {
      String text = Files.readString(Path.of("/proc/" + pid + "/stat"));
      // the fields after the command's closing parenthesis; utime is the 14th field of the line
      String[] f = text.substring(text.lastIndexOf(')') + 2).split(" ");
      long own = Long.parseLong(f[11]) + Long.parseLong(f[12]);
      return withChildren ? own + Long.parseLong(f[13]) + Long.parseLong(f[14]) : own;
    } catch (IOException e) {
      return 0; // the worker ended between the listing and the read
    }
  }

  /** The peak of the summed RSS of one side's processes and their descendants, every 100 ms. */
  static final class Sampler {
    private final Side side;
    private final Thread thread;
    private volatile long peak;
    private volatile boolean stopped;

    Sampler(Side side) {
      this.side = side;
      this.thread =
          new Thread(
              () -> {
                while (!stopped) {
                  peak = Math.max(peak, nowKib());
                  try {
                    Thread.sleep(100);
                  } catch (InterruptedException e) {
                    return;
                  }
                }
              });
      thread.setDaemon(true);
      thread.start();
    }

    long nowKib() {
      long sum = 0;
      for (Process p : side.all()) {
        sum += Math.max(0, kib(p.pid(), "VmRSS"));
        for (ProcessHandle child : (Iterable<ProcessHandle>) p.descendants()::iterator) {
          sum += Math.max(0, kib(child.pid(), "VmRSS"));
        }
      }
      return sum;
    }

    long peakKib() {
      return Math.max(peak, nowKib());
    }

    void stop() {
      stopped = true;
    }
  }

  static long kib(long pid, String field) {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
        if (line.startsWith(field + ":")) {
          return Long.parseLong(line.replaceAll("[^0-9]", ""));
        }
      }
    } catch (IOException e) {
      return -1;
    }
    return -1;
  }

  /** podinfo's chart directory packaged as version 1.0.0. */
  static byte[] tgz(Path chart) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (TarArchiveOutputStream tar = new TarArchiveOutputStream(new GZIPOutputStream(bytes));
        Stream<Path> files = Files.walk(chart)) {
      tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
      for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
        String relative = chart.relativize(file).toString();
        byte[] content = Files.readAllBytes(file);
        if (relative.equals("Chart.yaml")) {
          content =
              new String(content, StandardCharsets.UTF_8)
                  .replaceFirst("(?m)^version:.*$", "version: 1.0.0")
                  .getBytes(StandardCharsets.UTF_8);
        }
        TarArchiveEntry entry = new TarArchiveEntry("podinfo/" + relative);
        entry.setSize(content.length);
        tar.putArchiveEntry(entry);
        tar.write(content);
        tar.closeArchiveEntry();
      }
    }
    return bytes.toByteArray();
  }

  static String namespace(String side) {
    String ns = "bench-" + run + "-" + side;
    client
        .namespaces()
        .resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
        .create();
    return ns;
  }

  static void create(String yaml) {
    HasMetadata object =
        client
            .getKubernetesSerialization()
            .unmarshal(
                new ByteArrayInputStream(("apiVersion: " + yaml).getBytes(StandardCharsets.UTF_8)),
                HasMetadata.class);
    client.resource(object).create();
  }

  static boolean contains(Path log, String text) {
    try {
      return Files.readString(log).contains(text);
    } catch (IOException e) {
      return false;
    }
  }

  static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  static String loadAverage() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).split(" ");
      return f[0] + " " + f[1] + " " + f[2];
    } catch (IOException e) {
      return "unknown";
    }
  }

  static long clockTicks() {
    try {
      Process p = new ProcessBuilder("getconf", "CLK_TCK").start();
      return Long.parseLong(new String(p.getInputStream().readAllBytes()).trim());
    } catch (IOException | RuntimeException e) {
      return 100;
    }
  }

  static void await(BooleanSupplier condition, long seconds, List<Process> processes)
      throws InterruptedException {
    long deadline = System.nanoTime() + seconds * 1_000_000_000L;
    while (!condition.getAsBoolean()) {
      for (Process p : processes) {
        if (!p.isAlive()) {
          throw new IllegalStateException("process " + p.pid() + " exited: see its log");
        }
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("not reached within " + seconds + " s");
      }
      Thread.sleep(1000);
    }
  }
}
