import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.source.GitRepository;
import dev.capstan.engine.testing.GitHttpServer;
import dev.capstan.testing.CapstanCrds;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.eclipse.jgit.api.Git;

/**
 * Scale of the real engine process ({@code java -jar cli/target/capstan.jar run}) on the cluster of
 * $KUBECONFIG: N Kustomizations of M ConfigMaps each (nothing to wait for), the time from the first
 * Kustomization created until all are Ready, and the peak RSS of the engine and its build workers
 * together (their RSS summed every 100 ms), with the engine's own VmHWM. Run with
 * engine/bench/scale.sh N M.
 */
public class ScaleBench {
  static final String SHARD = "capstan.dev/bench-shard";
  static KubernetesClient client;

  public static void main(String[] args) throws Exception {
    int count = Integer.parseInt(args[0]);
    int objects = Integer.parseInt(args[1]);
    Path jar = Path.of(args[2]);
    List<String> jvmFlags = List.of(args[3].trim().split("\\s+"));
    long limitMinutes = Long.getLong("capstan.bench.limitMinutes", 20);
    client = new KubernetesClientBuilder().build();
    CapstanCrds.install(client);
    String shard = "scale" + Long.toHexString(System.nanoTime());
    String ns = "bench-" + shard;
    client
        .namespaces()
        .resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
        .create();
    Path repo = Files.createTempDirectory("capstan-scale-repo");
    Path storage = Files.createTempDirectory("capstan-scale-artifacts");
    writeRepo(repo, count, objects);
    // A GitRepository names a remote URL, never a path: the repository is served over smart HTTP.
    GitHttpServer served = GitHttpServer.serve(repo);
    List<String> command = new ArrayList<>(List.of("java"));
    String metricsAddr;
    String webhookAddr;
    command.addAll(jvmFlags);
    try (ServerSocket metrics = new ServerSocket(0);
        ServerSocket webhooks = new ServerSocket(0)) {
      // Both held open while chosen, so the two addresses differ.
      metricsAddr = "127.0.0.1:" + metrics.getLocalPort();
      webhookAddr = "127.0.0.1:" + webhooks.getLocalPort();
    }
    command.addAll(
        List.of(
            "-jar",
            jar.toString(),
            "run",
            "--watch-label-selector",
            SHARD + "=" + shard,
            "--metrics-addr",
            metricsAddr,
            "--webhook-addr",
            webhookAddr,
            "--storage-path",
            storage.toString()));
    Path log = Files.createTempFile("capstan-scale-engine", ".log");
    Process engine =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    System.out.println("engine pid " + engine.pid() + ", flags " + jvmFlags + ", log " + log);
    try {
      awaitLog(log, "capstan engine started", Duration.ofMinutes(2));
      create(
          GitRepository.class,
          """
          apiVersion: source.capstan.dev/v1
          kind: GitRepository
          metadata: {name: repo, namespace: %s, labels: {%s: %s}}
          spec: {url: "%s", ref: {branch: main}, interval: 60m}
          """
              .formatted(ns, SHARD, shard, served.url()));
      await(
          () -> {
            GitRepository r =
                client.resources(GitRepository.class).inNamespace(ns).withName("repo").get();
            return r.getStatus() != null && r.getStatus().artifact() != null;
          },
          Duration.ofMinutes(2));
      long rssBefore = kib(engine.pid(), "VmRSS");
      TreeRss tree = new TreeRss(engine.toHandle());
      long start = System.nanoTime();
      ExecutorService creators = Executors.newFixedThreadPool(8);
      for (int i = 0; i < count; i++) {
        int k = i;
        creators.submit(
            () ->
                create(
                    Kustomization.class,
                    """
                    apiVersion: kustomize.capstan.dev/v1
                    kind: Kustomization
                    metadata: {name: k%d, namespace: %s, labels: {%s: %s}}
                    spec:
                      sourceRef: {kind: GitRepository, name: repo}
                      path: "./k%d"
                      interval: 60m
                      prune: true
                    """
                        .formatted(k, ns, SHARD, shard, k)));
      }
      creators.shutdown();
      creators.awaitTermination(10, TimeUnit.MINUTES);
      long created = System.nanoTime();
      int ready = 0;
      // Counted from a watch rather than a LIST of every Kustomization each second: such a LIST
      // would cost the API server (and so the measured engine, on the same machine) far more.
      SharedIndexInformer<Kustomization> watched =
          client
              .resources(Kustomization.class)
              .inNamespace(ns)
              .inform(
                  new ResourceEventHandler<>() {
                    @Override
                    public void onAdd(Kustomization k) {}

                    @Override
                    public void onUpdate(Kustomization older, Kustomization newer) {}

                    @Override
                    public void onDelete(Kustomization k, boolean unknown) {}
                  },
                  0);
      while (ready < count) {
        if (!engine.isAlive()) {
          throw new IllegalStateException(
              "the engine exited with " + engine.exitValue() + "; see " + log);
        }
        if (System.nanoTime() - start > TimeUnit.MINUTES.toNanos(limitMinutes)) {
          System.out.printf(
              "GAVE UP after %d min: %d of %d Ready; peak RSS with workers %d MiB%n",
              limitMinutes, ready, count, tree.peakKib() / 1024);
          throw new IllegalStateException(
              "only " + ready + " of " + count + " Ready after " + limitMinutes + " min");
        }
        Thread.sleep(1000);
        ready =
            (int)
                watched.getStore().list().stream()
                    .filter(
                        k ->
                            k.getStatus() != null
                                && k.getStatus().conditions() != null
                                && k.getStatus().conditions().stream()
                                    .anyMatch(
                                        c ->
                                            "Ready".equals(c.getType())
                                                && "True".equals(c.getStatus())))
                    .count();
        System.out.printf(
            "%6.1f s: %d of %d Ready, RSS %d MiB with workers%n",
            (System.nanoTime() - start) / 1e9, ready, count, tree.nowKib() / 1024);
      }
      watched.close();
      double seconds = (System.nanoTime() - start) / 1e9;
      tree.stop();
      System.out.printf(
          "RESULT %d Kustomizations x %d objects: all Ready in %.1f s (creating them took %.1f s);"
              + " engine RSS before %d MiB; peak RSS of the engine and its build workers %d MiB"
              + " (the engine's own VmHWM %d MiB, %d workers); flags %s%n",
          count,
          objects,
          seconds,
          (created - start) / 1e9,
          rssBefore / 1024,
          tree.peakKib() / 1024,
          kib(engine.pid(), "VmHWM") / 1024,
          tree.workersSeen(),
          jvmFlags);
    } finally {
      if (!engine.isAlive()) {
        // Nothing will remove the finalizers of a dead engine: remove them so the namespace can go.
        System.out.println("the engine is not running: removing its finalizers; see " + log);
        for (Class<? extends HasMetadata> type :
            List.of(Kustomization.class, GitRepository.class)) {
          client
              .resources(type)
              .inNamespace(ns)
              .list()
              .getItems()
              .forEach(
                  o ->
                      client
                          .resources(type)
                          .inNamespace(ns)
                          .withName(o.getMetadata().getName())
                          .edit(
                              x -> {
                                x.getMetadata().setFinalizers(List.of());
                                return x;
                              }));
        }
      }
      // A running engine removes its finalizers (and prunes) before the namespace goes.
      try {
        await(() -> allDeleted(ns), Duration.ofMinutes(10));
      } finally {
        engine.destroy();
        engine.waitFor(30, TimeUnit.SECONDS);
        client.namespaces().withName(ns).delete();
        client.close();
        served.close();
      }
    }
  }

  /**
   * Asks again for the Kustomizations not marked for deletion yet: a DELETE of the whole collection
   * that outlives its request's timeout can end with only part of it marked.
   */
  static boolean allDeleted(String ns) {
    List<Kustomization> left =
        client.resources(Kustomization.class).inNamespace(ns).list().getItems();
    if (left.stream().anyMatch(k -> k.getMetadata().getDeletionTimestamp() == null)) {
      try {
        client.resources(Kustomization.class).inNamespace(ns).delete();
      } catch (KubernetesClientException e) {
        System.out.println("deleting the Kustomizations: " + e.getMessage() + "; asking again");
      }
    }
    return left.isEmpty();
  }

  static void writeRepo(Path dir, int count, int objects) throws Exception {
    try (Git git = Git.init().setDirectory(dir.toFile()).setInitialBranch("main").call()) {
      for (int k = 0; k < count; k++) {
        Path app = Files.createDirectories(dir.resolve("k" + k));
        for (int o = 0; o < objects; o++) {
          Files.writeString(
              app.resolve("cm" + o + ".yaml"),
              """
              apiVersion: v1
              kind: ConfigMap
              metadata: {name: k%d-cm%d}
              data: {value: "%d"}
              """
                  .formatted(k, o, o));
        }
      }
      git.add().addFilepattern(".").call();
      git.commit()
          .setMessage("scale")
          .setAuthor("bench", "bench@example.invalid")
          .setCommitter("bench", "bench@example.invalid")
          .setSign(false)
          .call();
    }
  }

  /** The RSS of a process and its descendants, summed every 100 ms; the peak of the sums. */
  static final class TreeRss {
    private final ProcessHandle root;
    private final Thread sampler;
    private final Set<Long> workers = ConcurrentHashMap.newKeySet();
    private volatile long peak;
    private volatile boolean stopped;

    TreeRss(ProcessHandle root) {
      this.root = root;
      this.sampler =
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
      sampler.setDaemon(true);
      sampler.start();
    }

    long nowKib() {
      long sum = Math.max(0, kib(root.pid(), "VmRSS"));
      for (ProcessHandle child : (Iterable<ProcessHandle>) root.descendants()::iterator) {
        workers.add(child.pid());
        sum += Math.max(0, kib(child.pid(), "VmRSS"));
      }
      return sum;
    }

    long peakKib() {
      return Math.max(peak, nowKib());
    }

    int workersSeen() {
      return workers.size();
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

  static void awaitLog(Path log, String text, Duration atMost) throws Exception {
    await(
        () -> {
          try {
            return Files.readString(log).contains(text);
          } catch (IOException e) {
            return false;
          }
        },
        atMost);
  }

  static <T extends HasMetadata> void create(Class<T> type, String yaml) {
    T object =
        client
            .resources(type)
            .load(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8)))
            .item();
    client.resource(object).create();
  }

  static void await(BooleanSupplier condition, Duration atMost) throws InterruptedException {
    long deadline = System.nanoTime() + atMost.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("not reached within " + atMost);
      }
      Thread.sleep(500);
    }
  }
}
