package dev.capstan.cli.faults;

import dev.capstan.api.kustomize.InventoryEntry;
import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.kustomize.KustomizationStatus;
import dev.capstan.api.source.GitRepository;
import dev.capstan.cli.faults.FaultInvariants.Verdict;
import dev.capstan.cli.faults.FaultObservation.AppliedObject;
import dev.capstan.cli.faults.FaultObservation.KustomizationState;
import dev.capstan.cli.faults.FaultObservation.ResourceUse;
import dev.capstan.cli.install.CapstanProcess;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The fault bench's cluster side: the GitRepository (reached through a {@link FaultyProxy}) and the
 * workload's Kustomizations in one namespace, with the {@link RegistrySide}'s if any, the engines
 * ({@link FaultEngines}: {@code capstan run} processes, each through a {@link FaultyProxy} of its
 * own to the API server), the deletions recorded from a watch, and the observation {@link
 * FaultInvariants} checks.
 */
public final class FaultCluster implements AutoCloseable {
  public static final String OWNER_LABEL = "kustomize.capstan.dev/name";
  private static final String SHARD_LABEL = "capstan.dev/fault-shard";

  private final KubernetesClient admin;
  private final String namespace;
  private final FaultWorkload workload;
  private final RegistrySide registry;
  private final SourceObjects objects;
  private final String shard;
  private final FaultyProxy git;
  private final FaultEngines engines;
  private final FaultInvariants invariants = FaultInvariants.standard();
  private DeletionRecorder deletions;
  private ResourceUse steady;
  private long steadyPid;
  private Duration warmUp = Duration.ZERO;

  /**
   * @param kubeconfig the admin kubeconfig: the engine's is this one with its server moved to the
   *     API proxy
   * @param registry the registry side, or null for a run without one ({@link Fault#needRegistry})
   */
  public FaultCluster(
      KubernetesClient admin,
      String namespace,
      Path kubeconfig,
      Path workDir,
      FaultWorkload workload,
      RegistrySide registry,
      List<String> jvmArgs)
      throws IOException {
    this.admin = admin;
    this.namespace = namespace;
    this.workload = workload;
    this.registry = registry;
    this.shard = namespace;
    this.objects = new SourceObjects(admin, namespace, Clock.systemUTC());
    URI gitUrl = URI.create(workload.url());
    this.git = FaultyProxy.start(gitUrl.getHost(), gitUrl.getPort());
    try {
      this.engines =
          new FaultEngines(admin, kubeconfig, workDir, jvmArgs, SHARD_LABEL + "=" + shard);
    } catch (IOException | RuntimeException e) {
      closeQuietly(git, e);
      throw e;
    }
  }

  private static void closeQuietly(FaultyProxy proxy, Exception cause) {
    try {
      proxy.close();
    } catch (IOException e) {
      cause.addSuppressed(e);
    }
  }

  public FaultWorkload workload() {
    return workload;
  }

  /** The registry side; only a run that names a registry fault has one. */
  RegistrySide registry() {
    if (registry == null) {
      throw new IllegalStateException("this run has no registry side (no registry fault named)");
    }
    return registry;
  }

  boolean hasRegistry() {
    return registry != null;
  }

  public FaultyProxy gitProxy() {
    return git;
  }

  /** The proxy in front of the working engine's API connections. */
  public FaultyProxy apiProxy() {
    return engines.proxyOf(engine());
  }

  /** The engines, for the faults that act on one of several. */
  FaultEngines engines() {
    return engines;
  }

  /** Two engines electing a leader rather than one ({@link Fault#needStandby}); before start. */
  public void withStandby() throws IOException {
    engines.withStandby();
  }

  /** Creates the sources and the Kustomizations, starts the engine and the recorder. */
  public void start() throws IOException {
    deletions = new DeletionRecorder(admin, namespace, OWNER_LABEL);
    String gitUrl = workload.url().replaceFirst(":\\d+/", ":" + git.port() + "/");
    objects.create(
        GitRepository.class,
        """
        apiVersion: source.capstan.dev/v1
        kind: GitRepository
        metadata: {name: repo, namespace: %s, labels: {%s: %s}}
        spec: {url: "%s", ref: {branch: main}, interval: 10s, timeout: 20s}
        """
            .formatted(namespace, SHARD_LABEL, shard, gitUrl));
    for (int i = 0; i < workload.count(); i++) {
      String dependsOn = FaultWorkload.dependsOn(i);
      objects.create(
          Kustomization.class,
          """
          apiVersion: kustomize.capstan.dev/v1
          kind: Kustomization
          metadata: {name: %s, namespace: %s, labels: {%s: %s}}
          spec:
            sourceRef: {kind: GitRepository, name: repo}
            path: "./%s"
            targetNamespace: %s
            interval: 10m
            retryInterval: 20s
            timeout: 60s
            prune: true
            wait: %s
            dependsOn: %s
          """
              .formatted(
                  FaultWorkload.name(i),
                  namespace,
                  SHARD_LABEL,
                  shard,
                  FaultWorkload.name(i),
                  namespace,
                  FaultWorkload.waits(i),
                  dependsOn == null ? "[]" : "[{name: " + dependsOn + "}]"));
    }
    if (registry != null) {
      registry.create(SHARD_LABEL, shard);
    }
    try {
      engines.start();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while starting the engines", e);
    }
  }

  /**
   * Puts each engine's artifact store on a tmpfs of {@code bytes} of its own; before {@link
   * #start}.
   */
  public void artifactsOnDisksOf(long bytes) {
    engines.artifactsOnDisksOf(bytes);
  }

  /** The artifact disks, if {@link #artifactsOnDisksOf} was asked for. */
  ArtifactDisks disks() {
    return engines.disks();
  }

  /** The GitRepository's Ready condition now, if it has one. */
  public Optional<Condition> sourceReady() {
    return objects.ready(GitRepository.class, "repo");
  }

  /** Starts an engine process (the previous one, if any, must be gone). */
  public CapstanProcess startEngine() throws IOException {
    return engines.startEngine();
  }

  /** The engine that does the work (with a standby, the one that leads). */
  public CapstanProcess engine() {
    return engines.engine();
  }

  /** SIGKILL of the engine, then a new one (whose steady state is taken anew: see below). */
  public void killAndRestartEngine() throws Exception {
    engine().kill();
    startEngine();
  }

  /**
   * Notes the engine's threads and memory as its steady state: after {@code warmUp} (a JVM keeps
   * growing toward its heap limit for a while after its first convergence), the highest of five
   * samples a second apart.
   */
  public ResourceUse markSteady(Duration warmUp) throws InterruptedException {
    this.warmUp = warmUp;
    Thread.sleep(warmUp.toMillis());
    ResourceUse highest = resourceUse();
    for (int sample = 1; sample < 5 && highest != null; sample++) {
      Thread.sleep(1000);
      ResourceUse now = resourceUse();
      highest = now == null ? null : highest.atLeast(now);
    }
    steady = highest;
    steadyPid = engine().pid();
    return steady;
  }

  /**
   * After a kill the engine is a new process: its steady state is taken again (after the same
   * warm-up), not compared with the old one's.
   */
  public void rebaselineIfRestarted() throws InterruptedException {
    if (steady != null && engine().pid() != steadyPid && engine().isAlive()) {
      markSteady(warmUp);
    }
  }

  /**
   * Asks for a fetch now, as a push webhook would: a merge patch without a resourceVersion, so the
   * engine's status writes in between cannot make it conflict.
   */
  public void requestFetch() {
    objects.requestFetch(GitRepository.class, "repo");
  }

  /** Kills of the engine aimed at one stage of a reconcile. */
  AimedKill aimedKill() {
    return new AimedKill(admin, namespace);
  }

  /** The partition of the leading engine from the API server, with a standby beside it. */
  LeaderPartition leaderPartition(Optional<Path> auditLog) {
    return new LeaderPartition(engines, namespace, auditLog);
  }

  /** The probe of a watch from before an etcd compaction. */
  RelistProbe relistProbe() {
    return new RelistProbe(admin, namespace);
  }

  public ResourceUse resourceUse() {
    long pid = engine().pid();
    try {
      int threads = 0;
      long rss = 0;
      for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
        if (line.startsWith("Threads:")) {
          threads = Integer.parseInt(line.replaceAll("\\D", ""));
        } else if (line.startsWith("VmRSS:")) {
          rss = Long.parseLong(line.replaceAll("\\D", ""));
        }
      }
      return new ResourceUse(threads, rss);
    } catch (IOException e) {
      return null;
    }
  }

  /**
   * Until every invariant but the leak holds or {@code atMost} has passed: the last verdict and the
   * time. The leak is checked only at the end of a run ({@link #awaitInvariantsAtTheEnd}).
   */
  public Outcome awaitInvariants(Duration atMost) throws Exception {
    return awaitInvariants(atMost, false);
  }

  /**
   * As {@link #awaitInvariants}, with the engine's threads and memory back to their steady state.
   */
  public Outcome awaitInvariantsAtTheEnd(Duration atMost) throws Exception {
    return awaitInvariants(atMost, true);
  }

  private Outcome awaitInvariants(Duration atMost, boolean leak) throws Exception {
    long start = System.nanoTime();
    long deadline = start + atMost.toNanos();
    while (true) {
      Verdict verdict;
      try {
        verdict = invariants.check(observe(leak));
      } catch (KubernetesClientException e) {
        // Right after a pause or a restart the API may fail a request: not yet, ask again.
        verdict = new Verdict(false, List.of("not observed: " + e.getMessage()));
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      if (verdict.held() || System.nanoTime() > deadline) {
        return new Outcome(verdict, seconds);
      }
      if (!engine().isAlive()) {
        return new Outcome(
            new Verdict(false, List.of("the engine exited:\n" + engine().logTail())), seconds);
      }
      Thread.sleep(1000);
    }
  }

  /**
   * What the cluster shows now, and with {@code leak} the engine's steady and current threads and
   * memory (else none, so no leak is checked).
   */
  public FaultObservation observe(boolean leak) throws IOException {
    String revision = workload.revision();
    Map<String, Map<String, String>> expected = workload.expected();
    Map<String, Instant> removedAt = new TreeMap<>(workload.removedAt());
    if (registry != null) {
      expected.putAll(registry.expected());
      removedAt.putAll(registry.removedAt());
    }
    Map<String, KustomizationState> states = new TreeMap<>();
    for (Kustomization k :
        admin.resources(Kustomization.class).inNamespace(namespace).list().getItems()) {
      states.put(k.getMetadata().getName(), state(k.getStatus()));
    }
    Map<String, AppliedObject> cluster = new TreeMap<>();
    for (ConfigMap c :
        admin.configMaps().inNamespace(namespace).withLabel(OWNER_LABEL).list().getItems()) {
      String value = c.getData() == null ? null : c.getData().get("value");
      cluster.put(
          c.getMetadata().getName(),
          new AppliedObject(c.getMetadata().getLabels().get(OWNER_LABEL), value));
    }
    return new FaultObservation(
        revision,
        registry == null ? Map.of() : registry.revisions(),
        expected,
        workload.failing(),
        states,
        cluster,
        removedAt,
        deletions.deletions(),
        leak ? steady : null,
        leak && steady != null ? resourceUse() : null);
  }

  private static KustomizationState state(KustomizationStatus status) {
    if (status == null) {
      return new KustomizationState(null, null, null, Set.of());
    }
    Condition ready =
        status.conditions() == null
            ? null
            : status.conditions().stream()
                .filter(c -> "Ready".equals(c.getType()))
                .findFirst()
                .orElse(null);
    Set<String> inventory =
        status.inventory() == null || status.inventory().entries() == null
            ? Set.of()
            : status.inventory().entries().stream()
                .map(InventoryEntry::id)
                .map(id -> id.split("_", -1)[1])
                .collect(Collectors.toSet());
    return new KustomizationState(
        ready == null ? null : ready.getStatus(),
        ready == null ? null : ready.getReason(),
        status.lastAppliedRevision(),
        inventory);
  }

  /** Stops the recorder and the engines, and frees the namespace's objects of their finalizers. */
  @Override
  public void close() throws Exception {
    // Nested so that whatever one close throws, the others still run: no engine outlives a run.
    try {
      try {
        if (deletions != null) {
          deletions.close();
        }
      } finally {
        try {
          CapstanProcess.stopAll(engines.all(), admin, namespace);
        } finally {
          engines.close();
        }
      }
    } finally {
      git.close();
    }
  }

  /** A round's result: the verdict and the seconds until every invariant held (or it gave up). */
  public record Outcome(Verdict verdict, double seconds) {}
}
