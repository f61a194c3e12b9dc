package dev.capstan.engine.controller;

import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.engine.cache.WithoutManagedFields;
import dev.capstan.engine.helmrelease.HelmReleasePipeline;
import dev.capstan.engine.kustomization.KustomizationPipeline;
import dev.capstan.engine.kustomization.PipelineParts;
import dev.capstan.engine.monitor.ConfigWatches;
import dev.capstan.engine.monitor.DependencyWatches;
import dev.capstan.engine.monitor.HealthMonitor;
import dev.capstan.engine.pipeline.SourceFetch;
import dev.capstan.engine.shard.ShardGate;
import dev.capstan.engine.source.BucketPipeline;
import dev.capstan.engine.source.HelmChartPipeline;
import dev.capstan.engine.source.HelmRepositoryPipeline;
import dev.capstan.engine.source.OciSourcePipeline;
import dev.capstan.engine.source.SourcePipeline;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.CustomResource;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.config.ControllerConfigurationOverrider;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.processing.retry.GenericRetry;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** Registers Capstan's controllers on an operator. */
public final class Controllers {
  /**
   * Finalizer that lets a deleted Kustomization's objects be deleted as its deletionPolicy says.
   */
  public static final String FINALIZER = "kustomize.capstan.dev/finalizer";

  private Controllers() {}

  /**
   * The names of the source controllers (Flux's source-controller's kinds), whose reconciles run
   * before the others queued in their namespace.
   */
  public static Set<String> sourceControllers() {
    return Stream.of(
            GitRepositoryReconciler.class,
            OciRepositoryReconciler.class,
            HelmRepositoryReconciler.class,
            HelmChartReconciler.class,
            BucketReconciler.class)
        .map(type -> type.getAnnotation(ControllerConfiguration.class).name())
        .collect(Collectors.toUnmodifiableSet());
  }

  /**
   * Registers the GitRepository, OCIRepository, HelmRepository, HelmChart and Kustomization
   * controllers.
   *
   * @param sourceFetch the reconcile the source controllers share
   * @param parts what the Kustomization pipeline works with; its {@code view} is ignored and
   *     replaced by {@code view}
   * @param view filled from the controller's caches once they start
   * @param dependencies wakes a Kustomization when an object it depends on changes
   * @param configs reports changes of the ConfigMaps and Secrets Kustomizations read (not started
   *     here); empty when those are not watched
   * @param labelSelector when present, only objects matching it are reconciled (sharding)
   * @param shards which Kustomizations and sources this replica owns
   * @return the Kustomizations in the controller's cache, for the load of each slot
   */
  public static Supplier<Stream<Kustomization>> register(
      Operator operator,
      SourceFetch sourceFetch,
      SourcePipeline sources,
      OciSourcePipeline ociSources,
      HelmRepositoryPipeline helmSources,
      HelmChartPipeline helmCharts,
      PipelineParts parts,
      CacheView view,
      HealthMonitor monitor,
      DependencyWatches dependencies,
      Optional<ConfigWatches> configs,
      Optional<String> labelSelector,
      ShardGate shards) {
    PipelineParts connected = parts.withView(view);
    KustomizationReconciler kustomizations =
        new KustomizationReconciler(new KustomizationPipeline(connected), view, shards);
    monitor.onWaitingObjectChange(kustomizations::wake);
    dependencies.onChange(kustomizations::wake);
    configs.ifPresent(c -> c.onChange(kustomizations::configChanged));
    operator.register(
        new GitRepositoryReconciler(sourceFetch, sources, shards),
        o -> configureSource(o, labelSelector, shards));
    operator.register(
        new OciRepositoryReconciler(sourceFetch, ociSources, shards),
        o -> configureSource(o, labelSelector, shards));
    operator.register(
        new HelmRepositoryReconciler(sourceFetch, helmSources, shards),
        o -> configureSource(o, labelSelector, shards));
    operator.register(
        new HelmChartReconciler(sourceFetch, helmCharts, shards),
        o -> configureSource(o, labelSelector, shards));
    operator.register(kustomizations, o -> configure(o, labelSelector).withFinalizer(FINALIZER));
    return kustomizations::cached;
  }

  /** Finalizer that lets a deleted HelmRelease be uninstalled. */
  public static final String HELM_RELEASE_FINALIZER = "helm.capstan.dev/finalizer";

  /**
   * Registers the HelmRelease controller, with its finalizer; {@code monitor} (HelmReleases' health
   * monitor) wakes a HelmRelease whose objects' health a reconcile has to decide; {@code sources}
   * (which {@code pipeline} reads its chart sources from) is connected to its informers.
   */
  public static void registerHelmReleases(
      Operator operator,
      HelmReleasePipeline pipeline,
      ReleaseSourceView sources,
      HealthMonitor monitor,
      Optional<String> labelSelector,
      ShardGate shards) {
    HelmReleaseReconciler releases = new HelmReleaseReconciler(pipeline, shards, sources);
    monitor.onWaitingObjectChange(releases::wake);
    operator.register(
        releases, o -> configure(o, labelSelector).withFinalizer(HELM_RELEASE_FINALIZER));
  }

  /** Registers the Bucket controller, as {@link #register} registers the other sources'. */
  public static void registerBuckets(
      Operator operator,
      SourceFetch sourceFetch,
      BucketPipeline buckets,
      Optional<String> labelSelector,
      ShardGate shards) {
    operator.register(
        new BucketReconciler(sourceFetch, buckets, shards),
        o -> configureSource(o, labelSelector, shards));
  }

  /**
   * A source's controller: as any other, and on a replica that does not own the source, also when
   * its owner wrote a new status (a new artifact), so that this replica fetches the same revision
   * for the Kustomizations it owns.
   */
  private static <R extends CustomResource<?, ?>>
      ControllerConfigurationOverrider<R> configureSource(
          ControllerConfigurationOverrider<R> o, Optional<String> labelSelector, ShardGate shards) {
    return configure(o, labelSelector)
        .withOnUpdateFilter(
            (newer, older) ->
                EventFilters.ownChange(newer, older)
                    || (!shards.owns(newer)
                        && !Objects.equals(newer.getStatus(), older.getStatus())));
  }

  private static <R extends HasMetadata> ControllerConfigurationOverrider<R> configure(
      ControllerConfigurationOverrider<R> o, Optional<String> labelSelector) {
    o.watchingAllNamespaces()
        // Status writes must not start reconciles, but the reconcile-request annotation must,
        // so events are filtered by what changed instead of by generation alone.
        .withGenerationAware(false)
        .withOnUpdateFilter(EventFilters::ownChange)
        .withItemStore(new WithoutManagedFields<>())
        .withRetry(GenericRetry.defaultLimitedExponentialRetry());
    labelSelector.ifPresent(o::withLabelSelector);
    return o;
  }
}
