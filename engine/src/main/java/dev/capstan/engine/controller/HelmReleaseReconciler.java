package dev.capstan.engine.controller;

import dev.capstan.api.helm.ChartReference;
import dev.capstan.api.helm.HelmRelease;
import dev.capstan.api.source.Artifact;
import dev.capstan.api.source.HelmChart;
import dev.capstan.api.source.OCIRepository;
import dev.capstan.engine.core.NamespacedName;
import dev.capstan.engine.helmrelease.HelmChartTemplates;
import dev.capstan.engine.helmrelease.HelmReleasePipeline;
import dev.capstan.engine.pipeline.Outcome;
import dev.capstan.engine.shard.ShardGate;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.IndexerResourceCache;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Hands each HelmRelease to its pipeline and turns the outcome into a requeue. A HelmRelease is
 * reconciled again when the artifact of its chart changes: the HelmChart made for it (found by its
 * owner labels) or the HelmChart or OCIRepository its chartRef names.
 */
@ControllerConfiguration(name = "helmrelease")
public final class HelmReleaseReconciler implements Reconciler<HelmRelease>, Cleaner<HelmRelease> {
  /** A chart source's {@code Kind/namespace/name} → the HelmReleases whose chartRef names it. */
  static final String BY_CHART_REF = "capstan.dev/release-by-chart-ref";

  private final HelmReleasePipeline pipeline;
  private final ShardGate shards;
  private final ReleaseSourceView sources;
  private final WakeUpEventSource<HelmRelease> wakeUps = new WakeUpEventSource<>(HelmRelease.class);

  HelmReleaseReconciler(HelmReleasePipeline pipeline, ShardGate shards, ReleaseSourceView sources) {
    this.pipeline = pipeline;
    this.shards = shards;
    this.sources = sources;
  }

  /** Reconciles {@code key} now (the health monitor asks, for a wait it cannot decide). */
  void wake(NamespacedName key) {
    wakeUps.wake(key);
  }

  /** Another replica's HelmRelease is left alone: it is reconciled when this one takes it. */
  @Override
  public UpdateControl<HelmRelease> reconcile(HelmRelease release, Context<HelmRelease> context) {
    Optional<ShardGate.Pass> pass = shards.enter(release);
    if (pass.isEmpty()) {
      return UpdateControl.noUpdate();
    }
    try (ShardGate.Pass owned = pass.get()) {
      Outcome outcome = pipeline.reconcile(release);
      UpdateControl<HelmRelease> control = UpdateControl.noUpdate();
      return outcome.requeueAfter().map(control::rescheduleAfter).orElse(control);
    }
  }

  @Override
  public DeleteControl cleanup(HelmRelease release, Context<HelmRelease> context) {
    Optional<ShardGate.Pass> pass = shards.enter(release);
    if (pass.isEmpty()) {
      return DeleteControl.noFinalizerRemoval();
    }
    try (ShardGate.Pass owned = pass.get()) {
      Optional<Duration> again = pipeline.delete(release);
      return again
          .map(after -> DeleteControl.noFinalizerRemoval().rescheduleAfter(after.toMillis()))
          .orElseGet(DeleteControl::defaultDelete);
    }
  }

  @Override
  public List<EventSource<?, HelmRelease>> prepareEventSources(
      EventSourceContext<HelmRelease> context) {
    IndexerResourceCache<HelmRelease> cache = context.getPrimaryCache();
    cache.addIndexers(Map.of(BY_CHART_REF, HelmReleaseReconciler::chartRefOf));
    InformerEventSource<HelmChart, HelmRelease> charts =
        SecondaryInformers.of(
            HelmChart.class,
            "release-charts",
            chart -> releasesOf(cache, chart),
            (newer, older) -> artifactChanged(artifact(newer), artifact(older)),
            context);
    InformerEventSource<OCIRepository, HelmRelease> ociCharts =
        SecondaryInformers.of(
            OCIRepository.class,
            "release-oci-charts",
            repo -> releasesOf(cache, repo),
            (newer, older) -> artifactChanged(artifact(newer), artifact(older)),
            context);
    sources.connect(charts, ociCharts);
    // what the gate turned away (another replica's, or before its caches filled), once it is ours
    shards.wakeOnAcquired(cache::list, this::wake);
    shards.onStoredHere(
        (kind, source) ->
            storedSource(kind, source, charts, ociCharts)
                .ifPresent(stored -> wakeAll(releasesOf(cache, stored))));
    return List.of(charts, ociCharts, wakeUps);
  }

  private void wakeAll(Set<ResourceID> releases) {
    releases.forEach(id -> wake(new NamespacedName(id.getNamespace().orElse(""), id.getName())));
  }

  /**
   * The chart source an artifact was stored for without a new revision (see {@code
   * ShardGate.onStoredHere}), from the informers: the HelmReleases waiting for it are woken, as a
   * new revision would wake them.
   */
  private static Optional<HasMetadata> storedSource(
      String kind,
      NamespacedName source,
      InformerEventSource<HelmChart, HelmRelease> charts,
      InformerEventSource<OCIRepository, HelmRelease> ociCharts) {
    ResourceID id = new ResourceID(source.name(), source.namespace());
    return switch (kind) {
      case "HelmChart" -> charts.get(id).map(HasMetadata.class::cast);
      case "OCIRepository" -> ociCharts.get(id).map(HasMetadata.class::cast);
      default -> Optional.empty();
    };
  }

  static List<String> chartRefOf(HelmRelease release) {
    ChartReference ref = release.getSpec() == null ? null : release.getSpec().chartRef();
    if (ref == null || ref.kind() == null) {
      return List.of();
    }
    String namespace =
        ref.namespace() == null || ref.namespace().isEmpty()
            ? release.getMetadata().getNamespace()
            : ref.namespace();
    return List.of(Indexes.sourceKey(ref.kind().name(), new NamespacedName(namespace, ref.name())));
  }

  /** The HelmRelease a HelmChart was made for (its labels) and those whose chartRef names it. */
  private static Set<ResourceID> releasesOf(
      IndexerResourceCache<HelmRelease> cache, HasMetadata source) {
    Set<ResourceID> ids = new HashSet<>();
    Map<String, String> labels = source.getMetadata().getLabels();
    if (labels != null
        && labels.containsKey(HelmChartTemplates.NAME_LABEL)
        && labels.containsKey(HelmChartTemplates.NAMESPACE_LABEL)) {
      ids.add(
          new ResourceID(
              labels.get(HelmChartTemplates.NAME_LABEL),
              labels.get(HelmChartTemplates.NAMESPACE_LABEL)));
    }
    String key =
        Indexes.sourceKey(HasMetadata.getKind(source.getClass()), NamespacedName.of(source));
    ids.addAll(
        cache.byIndex(BY_CHART_REF, key).stream()
            .map(ResourceID::fromResource)
            .collect(Collectors.toSet()));
    return ids;
  }

  /**
   * Whether the artifact's content or its revision changed: an OCI chart's version is pinned from
   * the revision's tag and digest, which a new tag on the same content changes alone.
   */
  private static boolean artifactChanged(Artifact newer, Artifact older) {
    return !Objects.equals(
            newer == null ? null : newer.digest(), older == null ? null : older.digest())
        || !Objects.equals(
            newer == null ? null : newer.revision(), older == null ? null : older.revision());
  }

  private static Artifact artifact(HelmChart chart) {
    return chart.getStatus() == null ? null : chart.getStatus().artifact();
  }

  private static Artifact artifact(OCIRepository repo) {
    return repo.getStatus() == null ? null : repo.getStatus().artifact();
  }
}
