package dev.capstan.engine;

import dev.capstan.api.helm.HelmRelease;
import dev.capstan.api.helm.HelmReleaseStatus;
import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.applier.common.Polling;
import dev.capstan.applier.kustomize.BuildSandbox;
import dev.capstan.applier.kustomize.ManifestBuilder;
import dev.capstan.engine.controller.CacheView;
import dev.capstan.engine.controller.Controllers;
import dev.capstan.engine.controller.ReleaseSourceView;
import dev.capstan.engine.dependencies.ObjectDependencies;
import dev.capstan.engine.fairness.FairExecutor;
import dev.capstan.engine.fairness.ReconcileTasks;
import dev.capstan.engine.helmrelease.HelmReleasePipeline;
import dev.capstan.engine.helmrelease.ReleaseActors;
import dev.capstan.engine.helmrelease.ReleaseClusters;
import dev.capstan.engine.helmrelease.ReleaseLiveHealth;
import dev.capstan.engine.helmrelease.ReleaseParts;
import dev.capstan.engine.helmrelease.ReleaseStatusWrites;
import dev.capstan.engine.http.ClientEventLoops;
import dev.capstan.engine.kustomization.GlobalAgeKeys;
import dev.capstan.engine.kustomization.PipelineParts;
import dev.capstan.engine.kustomization.PipelinePartsBuilder;
import dev.capstan.engine.kustomization.PipelineSettings;
import dev.capstan.engine.kustomization.ReferenceRules;
import dev.capstan.engine.kustomization.ServiceAccountClients;
import dev.capstan.engine.kustomization.WaitTracker;
import dev.capstan.engine.monitor.ConfigWatches;
import dev.capstan.engine.monitor.DependencyWatches;
import dev.capstan.engine.monitor.HealthMonitor;
import dev.capstan.engine.monitor.KustomizationHealthWrites;
import dev.capstan.engine.pipeline.Acting;
import dev.capstan.engine.pipeline.EngineTrees;
import dev.capstan.engine.pipeline.FetchAttempts;
import dev.capstan.engine.pipeline.FetchSlots;
import dev.capstan.engine.pipeline.Observers;
import dev.capstan.engine.pipeline.PipelineObserver;
import dev.capstan.engine.remote.RemoteClientFactory;
import dev.capstan.engine.remote.RemoteClusters;
import dev.capstan.engine.shard.ShardGate;
import dev.capstan.engine.shard.ShardMembership;
import dev.capstan.engine.source.BucketPipeline;
import dev.capstan.engine.source.HelmChartPipeline;
import dev.capstan.engine.source.HelmRepositoryPipeline;
import dev.capstan.engine.source.OciSourcePipeline;
import dev.capstan.engine.source.SourcePipeline;
import dev.capstan.engine.source.SourcePipelineParts;
import dev.capstan.engine.status.StatusWriter;
import dev.capstan.health.cel.BuiltinLibrary;
import dev.capstan.source.bucket.BucketLimits;
import dev.capstan.source.bucket.BucketSource;
import dev.capstan.source.core.store.ArtifactStore;
import dev.capstan.source.git.GitSource;
import dev.capstan.source.helm.ChartLimits;
import dev.capstan.source.helm.HelmChartSource;
import dev.capstan.source.helm.HelmIndexSource;
import dev.capstan.source.helm.IndexLimits;
import dev.capstan.source.helm.OciChartSource;
import dev.capstan.source.oci.ArtifactDownloads;
import dev.capstan.source.oci.OciSource;
import dev.capstan.source.oci.OciSourceOptions;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.Operator;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running engine: the GitRepository, OCIRepository, HelmRepository, HelmChart and Kustomization
 * controllers for all namespaces, the health monitor, and the extensions. Owns the operator and the
 * thread pools; not the client.
 */
public final class Engine implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Engine.class);

  /** Longer than any reconcile, so a client is never closed under one that is still using it. */
  private static final Duration IMPERSONATING_CLIENT_IDLE = Duration.ofHours(2);

  /**
   * Remote cluster clients kept at once (spec.kubeConfig); the least recently used is closed
   * beyond.
   */
  private static final int MAX_REMOTE_CLUSTERS = 100;

  /**
   * How long a stop waits for the reconciles already running: the pools, workers and clients they
   * use are closed after, and a reconcile cut off there writes no status. Below a pod's default
   * termination grace of 30 s.
   */
  private static final Duration RECONCILE_GRACE = Duration.ofSeconds(20);

  private final EngineOptions options;
  private final KubernetesClient client;
  private final List<EngineExtension> extensions;
  private final ExecutorService applyPool;

  /** The event loops of the clients the engine builds itself (tenants', remotes', watches'). */
  private final ClientEventLoops eventLoops = ClientEventLoops.start();

  private final ScheduledExecutorService monitorThread;
  private final HealthMonitor monitor;

  /** The health monitor of HelmReleases' objects (selected by their own owner label). */
  private final HealthMonitor releaseMonitor;

  private final DependencyWatches dependencyWatches;
  private final Optional<ConfigWatches> configWatches;
  private final Operator operator;
  private final ServiceAccountClients accounts;
  private final RemoteClusters<Acting> remotes;

  /** The remote clusters of HelmReleases, kept apart: a release and a Kustomization share names. */
  private final RemoteClusters<Acting> releaseRemotes;

  private final ManifestBuilder builder;
  private final Optional<ShardMembership> shardMembership;
  private final FairExecutor queue;
  private final ShardGate gate;

  public Engine(EngineOptions options, KubernetesClient client, List<EngineExtension> extensions) {
    this.options = options;
    this.client = client;
    this.extensions = List.copyOf(extensions);
    this.applyPool = Executors.newFixedThreadPool(options.applyThreads(), daemon("capstan-apply"));
    this.monitorThread = Executors.newSingleThreadScheduledExecutor(daemon("capstan-health"));
    PipelineObserver observer =
        Observers.of(this.extensions.stream().map(EngineExtension::observer).toList());
    CacheView view = new CacheView();
    ControllerCaches caches = new ControllerCaches();
    ShardGate shards =
        options
            .sharding()
            .map(s -> ShardGate.of(s, System::nanoTime))
            .orElseGet(() -> ShardGate.afterCachesFilled(caches));
    this.gate = shards;
    StatusWriter statuses = new StatusWriter(client, view, observer, shards.fence());
    WaitTracker waits = new WaitTracker();
    this.monitor =
        new HealthMonitor(
            client,
            new KustomizationHealthWrites(statuses, waits, options.clock(), shards::owns),
            options.clock(),
            monitorThread,
            options.healthDebounce());
    ReleaseLiveHealth releaseHealth =
        new ReleaseLiveHealth(statuses::updateRelease, options.clock(), shards::owns);
    this.releaseMonitor =
        new HealthMonitor(
            client, releaseHealth, options.clock(), monitorThread, options.healthDebounce());
    this.dependencyWatches = new DependencyWatches(client);
    EngineOptions.Reconciling reconciling = options.reconciling();
    FeatureGates gates = reconciling.featureGates();
    this.configWatches =
        gates.enabled(FeatureGates.Gate.DisableConfigWatchers)
            ? Optional.empty()
            : Optional.of(
                new ConfigWatches(
                    client, eventLoops.http(), reconciling.watchConfigsLabelSelector()));
    this.queue =
        FairExecutor.create(
            options.reconcileThreads(),
            "capstan-reconcile",
            ReconcileTasks.namespaces(),
            // As in Flux, where sources have a controller of their own: a fetch asked for does not
            // wait behind the Kustomizations of its namespace.
            ReconcileTasks.ofControllers(Controllers.sourceControllers()));
    this.operator =
        new Operator(
            o -> {
              o.withKubernetesClient(client)
                  .withCloseClientOnStop(false)
                  .checkingCRDAndValidateLocalModel(false)
                  .withConcurrentReconciliationThreads(options.reconcileThreads())
                  .withReconciliationTerminationTimeout(RECONCILE_GRACE)
                  // A first list refused or cut (RBAC applied a moment after the engine, a
                  // connection the API server closed while it replaced a CRD's storage) is tried
                  // again until the caches fill, as controller-runtime does; start() fails only
                  // once one has not filled in time (UnfilledCaches), naming it.
                  .withStopOnInformerErrorDuringStartup(false)
                  .withCacheSyncTimeout(options.cacheSyncTimeout())
                  // Fair across namespaces: one tenant's many retries cannot hold the queue.
                  .withExecutorService(queue);
              this.extensions.forEach(e -> e.configure(o, options));
            });
    caches.follow(operator);
    this.accounts =
        new ServiceAccountClients(
            Acting.of(client, applyPool, Polling.system()),
            c -> Acting.of(c, applyPool, Polling.system()),
            options.tenancy().defaultServiceAccount(),
            options.clock(),
            IMPERSONATING_CLIENT_IDLE,
            eventLoops.http());
    this.remotes =
        new RemoteClusters<>(
            client,
            RemoteClientFactory.defaults(eventLoops.http()),
            c -> Acting.of(c, applyPool, Polling.system()),
            MAX_REMOTE_CLUSTERS);
    remotes.onClosed(monitor::clusterClosed);
    this.releaseRemotes =
        new RemoteClusters<>(
            client,
            RemoteClientFactory.defaults(eventLoops.http()),
            c -> Acting.of(c, applyPool, Polling.system()),
            MAX_REMOTE_CLUSTERS);
    releaseRemotes.onClosed(releaseMonitor::clusterClosed);
    // GitRepositories name remote URLs only: a local path would read other sources' clones.
    // One store for every kind of source: one lock, so no collection removes another's artifact.
    ArtifactStore store = new ArtifactStore(options.storageRoot(), options.clock());
    GitSource git =
        new GitSource(
            ReferenceRules.gitRepositoryStore(options.storageRoot(), options.clock()), store);
    OciSourceOptions ociOptions = OciSourceOptions.of(store, options.clock());
    OciSource oci = new OciSource(ociOptions);
    // Shared by every kind of fetch: one namespace's fetches never hold every reconcile thread.
    FetchSlots fetchSlots = FetchSlots.forThreads(options.reconcileThreads());
    // The store starts empty: until a source is fetched into it, its artifact is on its way.
    FetchAttempts fetchAttempts = new FetchAttempts(options.clock());
    ArtifactDownloads downloads =
        new ArtifactDownloads(
            store,
            options.clock(),
            OciSourceOptions.DEFAULT_LAYER_LIMIT,
            OciSourceOptions.DEFAULT_LIMITS,
            options.tenancy().artifactUrls(),
            ociOptions.reads());
    // A build reads the stored trees and nothing else of the store (no clone, no state).
    this.builder =
        new ManifestBuilder(
            options.builds().limits(),
            BuildSandbox.forTenants(git.artifactsDirectory(), options.builds().allowUnconfined()));
    // The view is the controller's cache, connected when the controllers are registered.
    PipelineParts parts =
        PipelinePartsBuilder.builder()
            .client(client)
            .manifestBuilder(builder)
            .trees(new EngineTrees(git, downloads, fetchSlots, fetchAttempts))
            .accounts(accounts)
            .statuses(statuses)
            .tracking(monitor)
            .waits(waits)
            .library(BuiltinLibrary.load())
            .clock(options.clock())
            .backoff(options.backoff())
            .waitPoll(options.waitPoll())
            .noCrossNamespaceRefs(options.tenancy().noCrossNamespaceRefs())
            .observer(observer)
            .dependencyWatching(dependencyWatches)
            .remotes(remotes)
            .settings(
                new PipelineSettings(
                    gates.enabled(FeatureGates.Gate.StrictPostBuildSubstitutions),
                    gates.enabled(FeatureGates.Gate.CancelHealthCheckOnNewRevision),
                    reconciling.applyPolicy(),
                    reconciling
                        .sopsAgeSecret()
                        .map(secret -> GlobalAgeKeys.fromSecret(client, secret))
                        .orElse(GlobalAgeKeys.NONE)))
            .fence(shards.fence())
            .build();
    SourcePipelineParts sourceParts =
        new SourcePipelineParts(
            client, statuses, options.clock(), observer, fetchSlots, shards, fetchAttempts);
    SourcePipeline sources = new SourcePipeline(sourceParts, git);
    OciSourcePipeline ociSources = new OciSourcePipeline(sourceParts, oci);
    HelmIndexSource indexes =
        new HelmIndexSource(store, options.clock(), IndexLimits.DEFAULTS, ociOptions.reads());
    HelmRepositoryPipeline helmSources = new HelmRepositoryPipeline(sourceParts, indexes);
    HelmChartPipeline helmCharts =
        new HelmChartPipeline(
            sourceParts,
            indexes,
            new HelmChartSource(
                store,
                options.clock(),
                ChartLimits.DEFAULTS,
                IndexLimits.DEFAULTS,
                ociOptions.reads()),
            new OciChartSource(oci, store, options.clock(), ChartLimits.DEFAULTS.archiveBytes()));
    Supplier<Stream<Kustomization>> cached =
        Controllers.register(
            operator,
            sourceParts.fetches(),
            sources,
            ociSources,
            helmSources,
            helmCharts,
            parts,
            view,
            monitor,
            dependencyWatches,
            configWatches,
            options.watchLabelSelector(),
            shards);
    Controllers.registerBuckets(
        operator,
        sourceParts.fetches(),
        new BucketPipeline(
            sourceParts,
            new BucketSource(store, options.clock(), BucketLimits.DEFAULTS, ociOptions.reads())),
        options.watchLabelSelector(),
        shards);
    ReleaseSourceView chartSources = new ReleaseSourceView();
    Controllers.registerHelmReleases(
        operator,
        new HelmReleasePipeline(
            ReleaseParts.inCluster(client, parts.trees(), chartSources, options.clock())
                .backoff(options.backoff())
                .renderer(request -> builder.charts().render(request))
                .actors(
                    ReleaseActors.of(
                        new ReleaseClusters(
                            release ->
                                accounts.serviceAccountOf(
                                    release.getMetadata().getNamespace(),
                                    release.getSpec().serviceAccountName()),
                            accounts::actingAs,
                            releaseRemotes),
                        new ObjectDependencies(client, "the engine")::lookup,
                        options.clock()))
                .noCrossNamespaceRefs(options.tenancy().noCrossNamespaceRefs())
                .statuses(releaseStatuses(statuses))
                .library(parts.library())
                .waitPoll(options.waitPoll())
                .observer(observer)
                .tracking(releaseHealth.trackedBy(releaseMonitor))
                .build()),
        chartSources,
        releaseMonitor,
        options.watchLabelSelector(),
        shards);
    this.shardMembership =
        options
            .sharding()
            .map(
                s ->
                    new ShardMembership(
                        client,
                        s,
                        s.leaseNamespace().orElseGet(() -> namespaceOf(client)),
                        shards,
                        cached,
                        options.clock(),
                        System::nanoTime));
  }

  /** The HelmRelease pipeline's statuses: written, and read again when the cache is behind. */
  private static ReleaseStatusWrites releaseStatuses(StatusWriter statuses) {
    return new ReleaseStatusWrites() {
      @Override
      public void write(HelmRelease current, HelmReleaseStatus next) {
        statuses.write(current, next);
      }

      @Override
      public HelmRelease current(HelmRelease cached) {
        return statuses.current(cached);
      }
    };
  }

  /** The client's own namespace (the pod's, or the kubeconfig context's), else default. */
  private static String namespaceOf(KubernetesClient client) {
    String namespace = client.getNamespace();
    return namespace == null || namespace.isBlank() ? "default" : namespace;
  }

  public Engine(EngineOptions options, KubernetesClient client) {
    this(options, client, List.of());
  }

  /**
   * Starts the controllers; returns once their caches are filled.
   *
   * @throws IllegalArgumentException when the API server refuses the configs label selector
   * @throws EngineStartFailed when a controller's cache has not filled within {@link
   *     EngineOptions#cacheSyncTimeout()} (no reconcile of its controller has run: the gate waits
   *     for its caches)
   */
  public void start() {
    extensions.forEach(e -> e.queueAndShare(queue, shardMembership));
    extensions.forEach(e -> e.starting(client));
    long began = System.nanoTime();
    operator.start();
    // (with leader election too: a standby fills its caches as the leader does)
    Optional<String> unfilled =
        UnfilledCaches.of(operator.getRuntimeInfo(), Duration.ofNanos(System.nanoTime() - began));
    if (unfilled.isPresent()) {
      throw new EngineStartFailed(unfilled.get());
    }
    gate.startChecked();
    // After the caches filled: the first round weighs the slots by what they hold and reconciles
    // what it takes (until then the gate turns every reconcile away).
    shardMembership.ifPresent(ShardMembership::start);
    configWatches.ifPresent(ConfigWatches::start);
    extensions.forEach(e -> e.started(client, options));
    LOG.info(
        "capstan engine started (all namespaces{})",
        options.watchLabelSelector().map(s -> ", selector " + s).orElse(""));
  }

  /** The health monitor (for tools that show what is watched). */
  public HealthMonitor monitor() {
    return monitor;
  }

  /** The watches that wake Kustomizations waiting for objects they depend on. */
  public DependencyWatches dependencyWatches() {
    return dependencyWatches;
  }

  @Override
  public void close() {
    try {
      // Hands this replica's share over before anything stops: the others take it at once.
      shardMembership.ifPresent(ShardMembership::close);
      extensions.forEach(EngineExtension::stopping);
    } finally {
      // the reconcile threads are not daemons: the operator stops them whatever failed above
      operator.stop();
      extensions.forEach(EngineExtension::stopped);
    }
    monitor.close();
    releaseMonitor.close();
    dependencyWatches.close();
    configWatches.ifPresent(ConfigWatches::close);
    monitorThread.shutdownNow();
    applyPool.shutdownNow();
    accounts.close();
    remotes.close();
    releaseRemotes.close();
    eventLoops.close();
    builder.close();
  }

  private static ThreadFactory daemon(String name) {
    return runnable -> {
      Thread thread = new Thread(runnable, name);
      thread.setDaemon(true);
      return thread;
    };
  }
}
