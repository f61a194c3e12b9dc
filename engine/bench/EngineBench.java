import dev.capstan.api.common.ReconcileRequest;
import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.source.GitRepository;
import dev.capstan.engine.Engine;
import dev.capstan.engine.EngineOptions;
import dev.capstan.engine.conditions.KustomizationStatuses;
import dev.capstan.engine.testing.GitHttpServer;
import dev.capstan.testing.CapstanCrds;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.jgit.api.Git;

/**
 * Speed benchmarks of the engine on a real API server (the local control plane): run with
 * engine/bench/run.sh SCENARIO. Scenarios: commit-latency, dependency-wake, noop-1000, wait-cancel.
 */
public class EngineBench {
  static final String SHARD = "capstan.dev/bench-shard";
  static KubernetesClient client;
  static String ns;
  static String shard;
  static Git git;
  static Path repo;

  /** The repository over smart HTTP: a GitRepository names a remote URL, never a path. */
  static GitHttpServer served;

  public static void main(String[] args) throws Exception {
    String scenario = args.length > 0 ? args[0] : "commit-latency";
    client = new KubernetesClientBuilder().build();
    CapstanCrds.install(client);
    shard = "b" + Long.toHexString(System.nanoTime());
    ns = "bench-" + shard;
    client
        .namespaces()
        .resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
        .create();
    repo = Files.createTempDirectory("capstan-bench-repo");
    git = Git.init().setDirectory(repo.toFile()).setInitialBranch("main").call();
    served = GitHttpServer.serve(repo);
    Path storage = Files.createTempDirectory("capstan-bench-artifacts");
    try (Engine engine =
        new Engine(
            EngineOptions.defaults(storage)
                .withWatchLabelSelector(Optional.of(SHARD + "=" + shard))
                .withWaitPoll(Duration.ofSeconds(1)),
            client)) {
      engine.start();
      switch (scenario) {
        case "commit-latency" -> commitLatency();
        case "dependency-wake" -> dependencyWake();
        case "noop-1000" -> noop1000();
        case "wait-cancel" -> waitCancel();
        default -> throw new IllegalArgumentException("unknown scenario " + scenario);
      }
      // While the engine still runs, so that it removes its finalizers and the namespace can go.
      client.resources(Kustomization.class).inNamespace(ns).delete();
      await(
          () -> client.resources(Kustomization.class).inNamespace(ns).list().getItems().isEmpty(),
          Duration.ofMinutes(2));
    } finally {
      client.namespaces().withName(ns).delete();
      client.close();
      served.close();
    }
  }

  /**
   * Commit-to-applied after requestedAt, for an app of 50 objects (45 ConfigMaps, 5 Deployments).
   */
  static void commitLatency() throws Exception {
    String revision = commit(app50(0, "1"));
    gitRepository("repo");
    kustomization("app", "./app", "  wait: true\n  timeout: 5m\n");
    awaitApplied("app", revision, Duration.ofMinutes(3));
    List<Long> configOnly = new ArrayList<>();
    List<Long> withRollout = new ArrayList<>();
    for (int i = 1; i <= 5; i++) {
      configOnly.add(measureCommit(app50(i, String.valueOf(i - 1 + 1))));
    }
    for (int i = 1; i <= 5; i++) {
      withRollout.add(measureCommit(app50(100 + i, "rollout-" + i)));
    }
    report("commit-to-applied, 50 objects, ConfigMaps changed (no rollout)", configOnly);
    report("commit-to-applied, 50 objects, 5 Deployments rolled out (wait: true)", withRollout);
    // The build runs kustomize's code, which the JIT compiles over its first few hundred builds:
    // the same measurement again once a running engine has built this app that often.
    for (int i = 1; i <= 300; i++) {
      measureCommit(app50(i, "warm-" + i));
    }
    List<Long> warm = new ArrayList<>();
    for (int i = 1; i <= 10; i++) {
      warm.add(measureCommit(app50(i, "measured-" + i)));
    }
    report("commit-to-applied, 50 objects, ConfigMaps changed, after 300 commits", warm);
  }

  static long measureCommit(Map<String, String> files) throws Exception {
    String revision = commit(files);
    Instant start = Instant.now();
    requestReconcile(GitRepository.class, "repo");
    awaitApplied("app", revision, Duration.ofMinutes(3));
    return Duration.between(start, Instant.now()).toMillis();
  }

  /** How soon a dependent is woken once its dependency turns Ready, seen by one watch. */
  static void dependencyWake() throws Exception {
    String revision =
        commit(
            Map.of("infra/cm.yaml", configMap("infra", "1"), "app/cm.yaml", configMap("app", "1")));
    gitRepository("repo");
    awaitSource(revision);
    List<Long> wakes = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      Map<String, Instant> seen = new ConcurrentHashMap<>();
      String infra = "infra-" + i;
      String app = "app-" + i;
      try (var watch =
          client
              .resources(Kustomization.class)
              .inNamespace(ns)
              .watch(
                  new Watcher<>() {
                    @Override
                    public void eventReceived(Action action, Kustomization k) {
                      String reason =
                          KustomizationStatuses.condition(k.getStatus(), "Ready")
                              .map(c -> c.getStatus() + "/" + c.getReason())
                              .orElse("");
                      if (k.getMetadata().getName().equals(infra) && reason.startsWith("True")) {
                        seen.putIfAbsent("infra-ready", Instant.now());
                      }
                      if (k.getMetadata().getName().equals(app)
                          && seen.containsKey("infra-ready")
                          && !reason.endsWith("DependencyNotReady")) {
                        seen.putIfAbsent("app-woken", Instant.now());
                      }
                    }

                    @Override
                    public void onClose(WatcherException cause) {}
                  })) {
        kustomization(app, "./app", "  retryInterval: 10m\n  dependsOn: [{name: " + infra + "}]\n");
        await(
            () ->
                KustomizationStatuses.condition(get(app).getStatus(), "Ready")
                    .map(c -> "DependencyNotReady".equals(c.getReason()))
                    .orElse(false),
            Duration.ofSeconds(30));
        kustomization(infra, "./infra", "");
        try {
          await(() -> seen.containsKey("app-woken"), Duration.ofSeconds(60));
        } catch (IllegalStateException e) {
          System.out.println(
              "seen "
                  + seen
                  + "\ninfra "
                  + get(infra).getStatus()
                  + "\napp "
                  + get(app).getStatus());
          throw e;
        }
        wakes.add(Duration.between(seen.get("infra-ready"), seen.get("app-woken")).toMillis());
      }
    }
    report("dependent woken after its dependency turned Ready", wakes);
  }

  /**
   * A new revision arriving while a health wait of five minutes is in progress: from the moment a
   * watch sees the GitRepository's artifact at the new revision until a watch sees the new
   * revision's ConfigMap applied (the wait canceled and the revision reconciled at once).
   */
  static void waitCancel() throws Exception {
    Map<String, Instant> arrived = new ConcurrentHashMap<>();
    Map<String, Instant> applied = new ConcurrentHashMap<>();
    String first = commit(stuckApp("0"));
    gitRepository("repo");
    kustomization("app", "./stuck", "  wait: true\n  timeout: 5m\n");
    try (var sources = watchArtifacts(arrived);
        var maps = watchVersions(applied)) {
      List<Long> took = new ArrayList<>();
      for (int i = 1; i <= 10; i++) {
        awaitWaiting("app", Duration.ofMinutes(2));
        String revision = commit(stuckApp(String.valueOf(i)));
        requestReconcile(GitRepository.class, "repo");
        String version = String.valueOf(i);
        await(
            () -> arrived.containsKey(revision) && applied.containsKey(version),
            Duration.ofMinutes(1));
        took.add(Duration.between(arrived.get(revision), applied.get(version)).toMillis());
      }
      System.out.println("first revision " + first);
      report("new revision applied after it arrived, during a 5-minute health wait", took);
    }
  }

  /** A revision whose Deployment no node can run: its health wait lasts the whole timeout. */
  static Map<String, String> stuckApp(String version) {
    return Map.of(
        "stuck/version.yaml",
        configMap("version", version),
        "stuck/deploy.yaml",
        """
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: stuck}
        spec:
          replicas: 1
          progressDeadlineSeconds: 600
          selector: {matchLabels: {app: stuck}}
          template:
            metadata: {labels: {app: stuck}}
            spec:
              nodeSelector: {capstan.dev/no-such-node: "true"}
              containers: [{name: app, image: "registry.invalid/app:1"}]
        """);
  }

  /** Until the Kustomization's Ready condition says it waits for its objects. */
  static void awaitWaiting(String name, Duration atMost) throws InterruptedException {
    await(
        () ->
            KustomizationStatuses.condition(get(name).getStatus(), "Ready")
                .map(
                    c -> "Unknown".equals(c.getStatus()) && c.getMessage().contains("waiting for:"))
                .orElse(false),
        atMost);
  }

  /** When each artifact revision of the namespace's GitRepositories was first seen. */
  static AutoCloseable watchArtifacts(Map<String, Instant> seen) {
    return client
        .resources(GitRepository.class)
        .inNamespace(ns)
        .watch(
            new Watcher<>() {
              @Override
              public void eventReceived(Action action, GitRepository r) {
                if (r.getStatus() != null && r.getStatus().artifact() != null) {
                  seen.putIfAbsent(r.getStatus().artifact().revision(), Instant.now());
                }
              }

              @Override
              public void onClose(WatcherException cause) {}
            });
  }

  /** When each value of the ConfigMap "version" was first seen. */
  static AutoCloseable watchVersions(Map<String, Instant> seen) {
    return client
        .configMaps()
        .inNamespace(ns)
        .withName("version")
        .watch(
            new Watcher<>() {
              @Override
              public void eventReceived(Action action, ConfigMap map) {
                if (map.getData() != null && map.getData().get("value") != null) {
                  seen.putIfAbsent(map.getData().get("value"), Instant.now());
                }
              }

              @Override
              public void onClose(WatcherException cause) {}
            });
  }

  /** A no-op reconcile of 1,000 objects: count writes and dry-runs at the API server. */
  static void noop1000() throws Exception {
    client
        .resource(
            client.getKubernetesSerialization().unmarshal(CRD, CustomResourceDefinition.class))
        .fieldManager("capstan-bench")
        .forceConflicts()
        .serverSideApply();
    Thread.sleep(3000);
    Map<String, String> files = new TreeMap<>();
    for (int i = 0; i < 1000; i++) {
      files.put(
          "app/item-" + i + ".yaml",
          "apiVersion: bench.capstan.dev/v1\nkind: BenchItem\nmetadata: {name: item-"
              + i
              + "}\nspec: {n: "
              + i
              + "}\n");
    }
    String revision = commit(files);
    gitRepository("repo");
    Instant first = Instant.now();
    kustomization("app", "./app", "  timeout: 5m\n");
    awaitApplied("app", revision, Duration.ofMinutes(5));
    System.out.printf(
        "first apply of 1,000 objects: %d ms%n", Duration.between(first, Instant.now()).toMillis());
    Thread.sleep(2000);
    Map<String, Double> before = metrics();
    Instant start = Instant.now();
    String requested = requestReconcile(Kustomization.class, "app");
    await(
        () ->
            requested.equals(get("app").getStatus().lastHandledReconcileAt())
                && KustomizationStatuses.condition(get("app").getStatus(), "Ready")
                    .map(c -> "True".equals(c.getStatus()))
                    .orElse(false),
        Duration.ofMinutes(2));
    long took = Duration.between(start, Instant.now()).toMillis();
    Thread.sleep(2000);
    Map<String, Double> after = metrics();
    System.out.printf("no-op reconcile of 1,000 objects: %d ms%n", took);
    System.out.printf(
        "  writes to the applied objects (POST/PUT/PATCH/APPLY benchitems): %.0f%n",
        delta(
            before,
            after,
            k ->
                k.contains("resource=\"benchitems\"")
                    && k.matches(".*verb=\"(POST|PUT|PATCH|APPLY)\".*")));
    System.out.printf(
        "  deletes of benchitems (cluster-wide; the namespace controller's clean-up of"
            + " terminating namespaces shows here, the engine deletes nothing in a no-op): %.0f%n",
        delta(
            before,
            after,
            k ->
                k.contains("resource=\"benchitems\"")
                    && k.matches(".*verb=\"(DELETE|DELETECOLLECTION)\".*")));
    after.forEach(
        (k, v) -> {
          double d = v - before.getOrDefault(k, 0.0);
          if (d > 0 && k.contains("resource=\"benchitems\"")) {
            System.out.println("    " + k + " +" + d);
          }
        });
    System.out.printf(
        "  dry-run requests for the applied objects: %.0f%n",
        delta(
            before,
            after,
            k -> k.contains("resource=\"benchitems\"") && k.contains("dry_run=\"All\"")));
    System.out.printf(
        "  reads of the applied objects (GET/LIST): %.0f%n",
        delta(
            before,
            after,
            k ->
                k.contains("resource=\"benchitems\"")
                    && (k.contains("verb=\"GET\"") || k.contains("verb=\"LIST\""))));
    System.out.printf(
        "  status writes on the Kustomization (echo of requestedAt): %.0f%n",
        delta(
            before,
            after,
            k ->
                k.contains("resource=\"kustomizations\"")
                    && k.contains("subresource=\"status\"")
                    && isWrite(k)));
  }

  static boolean isWrite(String key) {
    return key.matches(".*verb=\"(POST|PUT|PATCH|APPLY|DELETE|DELETECOLLECTION)\".*");
  }

  static double delta(
      Map<String, Double> before, Map<String, Double> after, Predicate<String> which) {
    double sum = 0;
    for (var e : after.entrySet()) {
      if (which.test(e.getKey())) {
        sum += e.getValue() - before.getOrDefault(e.getKey(), 0.0);
      }
    }
    return sum;
  }

  static final Pattern METRIC = Pattern.compile("^apiserver_request_total\\{(.*)\\} ([0-9.e+]+)$");

  static Map<String, Double> metrics() {
    String text = client.raw(client.getMasterUrl().toString().replaceAll("/$", "") + "/metrics");
    Map<String, Double> values = new HashMap<>();
    for (String line : text.split("\n")) {
      Matcher m = METRIC.matcher(line);
      if (m.matches()) {
        values.put(m.group(1), Double.parseDouble(m.group(2)));
      }
    }
    return values;
  }

  // ---- helpers ----

  static Map<String, String> app50(int version, String value) {
    Map<String, String> files = new TreeMap<>();
    for (int i = 0; i < 45; i++) {
      files.put("app/cm-" + i + ".yaml", configMap("cm-" + i, value));
    }
    for (int i = 0; i < 5; i++) {
      files.put(
          "app/deploy-" + i + ".yaml",
          """
          apiVersion: apps/v1
          kind: Deployment
          metadata: {name: web-%d}
          spec:
            replicas: 1
            selector: {matchLabels: {app: web-%d}}
            template:
              metadata: {labels: {app: web-%d}, annotations: {version: "%s"}}
              spec: {containers: [{name: app, image: "registry.invalid/app:1"}]}
          """
              .formatted(i, i, i, version >= 100 ? value : "stable"));
    }
    return files;
  }

  static String configMap(String name, String value) {
    return "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: "
        + name
        + "}\ndata: {value: \""
        + value
        + "\"}\n";
  }

  static String commit(Map<String, String> files) throws Exception {
    for (var e : files.entrySet()) {
      Path file = repo.resolve(e.getKey());
      Files.createDirectories(file.getParent());
      Files.writeString(file, e.getValue());
      git.add().addFilepattern(e.getKey()).call();
    }
    return "main@sha1:" + git.commit().setMessage("bench").setAllowEmpty(true).call().getName();
  }

  static void gitRepository(String name) {
    create(
        GitRepository.class,
        """
        apiVersion: source.capstan.dev/v1
        kind: GitRepository
        metadata: {name: %s, namespace: %s, labels: {%s: %s}}
        spec: {url: "%s", ref: {branch: main}, interval: 10m}
        """
            .formatted(name, ns, SHARD, shard, served.url()));
  }

  static void kustomization(String name, String path, String extra) {
    create(
        Kustomization.class,
        """
        apiVersion: kustomize.capstan.dev/v1
        kind: Kustomization
        metadata: {name: %s, namespace: %s, labels: {%s: %s}}
        spec:
          sourceRef: {kind: GitRepository, name: repo}
          path: "%s"
          interval: 10m
          prune: true
        %s\
        """
            .formatted(name, ns, SHARD, shard, path, extra));
  }

  static <T extends HasMetadata> void create(Class<T> type, String yaml) {
    client
        .resource(
            client
                .resources(type)
                .load(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8)))
                .item())
        .create();
  }

  static Kustomization get(String name) {
    return client.resources(Kustomization.class).inNamespace(ns).withName(name).get();
  }

  static String requestReconcile(Class<? extends HasMetadata> type, String name) {
    ReconcileRequest request = ReconcileRequest.at(Clock.systemUTC());
    client
        .resources(type)
        .inNamespace(ns)
        .withName(name)
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            client.getKubernetesSerialization().asJson(request.mergePatch()));
    return request.token();
  }

  static void awaitSource(String revision) throws InterruptedException {
    await(
        () -> {
          var r = client.resources(GitRepository.class).inNamespace(ns).withName("repo").get();
          return r.getStatus() != null
              && r.getStatus().artifact() != null
              && revision.equals(r.getStatus().artifact().revision());
        },
        Duration.ofSeconds(60));
  }

  static void awaitApplied(String name, String revision, Duration atMost)
      throws InterruptedException {
    await(
        () ->
            KustomizationStatuses.condition(get(name).getStatus(), "Ready")
                .map(
                    c ->
                        "True".equals(c.getStatus())
                            && c.getMessage().equals("Applied revision: " + revision))
                .orElse(false),
        atMost);
  }

  static void await(BooleanSupplier condition, Duration atMost) throws InterruptedException {
    Instant deadline = Instant.now().plus(atMost);
    while (true) {
      try {
        if (condition.getAsBoolean()) {
          return;
        }
      } catch (RuntimeException e) {
        // not there yet
      }
      if (Instant.now().isAfter(deadline)) {
        throw new IllegalStateException("timed out after " + atMost);
      }
      Thread.sleep(20);
    }
  }

  static void report(String what, List<Long> millis) {
    List<Long> sorted = new ArrayList<>(millis);
    Collections.sort(sorted);
    System.out.printf(
        "%s: runs %s ms; median %d ms, max %d ms%n",
        what, millis, sorted.get(sorted.size() / 2), sorted.get(sorted.size() - 1));
  }

  static final String CRD =
      """
      apiVersion: apiextensions.k8s.io/v1
      kind: CustomResourceDefinition
      metadata: {name: benchitems.bench.capstan.dev}
      spec:
        group: bench.capstan.dev
        names: {kind: BenchItem, plural: benchitems, singular: benchitem, listKind: BenchItemList}
        scope: Namespaced
        versions:
        - name: v1
          served: true
          storage: true
          schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
      """;
}
