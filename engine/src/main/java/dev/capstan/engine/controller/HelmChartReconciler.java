package dev.capstan.engine.controller;

import dev.capstan.api.source.GitRepository;
import dev.capstan.api.source.HelmChart;
import dev.capstan.api.source.HelmRepository;
import dev.capstan.engine.core.NamespacedName;
import dev.capstan.engine.pipeline.SourceFetch;
import dev.capstan.engine.shard.ShardGate;
import dev.capstan.engine.source.HelmChartPipeline;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.IndexerResourceCache;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Hands each HelmChart to its pipeline and turns the outcome into a requeue. A HelmChart is
 * reconciled again when its source's artifact changes (a HelmRepository's new index, a
 * GitRepository's new revision), as Flux's are; told of deletions too (without a finalizer), so
 * that a deleted chart's stored artifact goes with it.
 */
@ControllerConfiguration(name = "helmchart", triggerReconcilerOnAllEvents = true)
public final class HelmChartReconciler extends SourceReconciler<HelmChart>
    implements Reconciler<HelmChart> {
  /** A source's {@code Kind/namespace/name} → the HelmCharts built from it. */
  static final String BY_SOURCE = "capstan.dev/chart-by-source";

  HelmChartReconciler(SourceFetch fetches, HelmChartPipeline pipeline, ShardGate shards) {
    super(fetches, pipeline, shards);
  }

  @Override
  public List<EventSource<?, HelmChart>> prepareEventSources(
      EventSourceContext<HelmChart> context) {
    IndexerResourceCache<HelmChart> cache = context.getPrimaryCache();
    cache.addIndexers(Map.of(BY_SOURCE, HelmChartReconciler::sourceOf));
    WakeUpEventSource<HelmChart> wakeUps = wakeUps(context);
    // a source stored again under its revision (a restart's empty store) changes no status
    shards.onStoredHere(
        (kind, source) ->
            cache
                .byIndex(BY_SOURCE, Indexes.sourceKey(kind, source))
                .forEach(chart -> wakeUps.wake(NamespacedName.of(chart))));
    return List.of(
        wakeUps,
        SecondaryInformers.of(
            HelmRepository.class,
            "chart-helm-repositories",
            repo -> charts(cache, repo),
            (newer, older) -> !Objects.equals(revisionOf(newer), revisionOf(older)),
            context),
        SecondaryInformers.of(
            GitRepository.class,
            "chart-git-repositories",
            repo -> charts(cache, repo),
            EventFilters::revisionChange,
            context));
  }

  static List<String> sourceOf(HelmChart chart) {
    if (chart.getSpec() == null
        || chart.getSpec().sourceRef() == null
        || chart.getSpec().sourceRef().kind() == null) {
      return List.of();
    }
    return List.of(
        Indexes.sourceKey(
            chart.getSpec().sourceRef().kind().name(),
            new NamespacedName(
                chart.getMetadata().getNamespace(), chart.getSpec().sourceRef().name())));
  }

  private static Set<ResourceID> charts(IndexerResourceCache<HelmChart> cache, HasMetadata source) {
    String key =
        Indexes.sourceKey(HasMetadata.getKind(source.getClass()), NamespacedName.of(source));
    return cache.byIndex(BY_SOURCE, key).stream()
        .map(ResourceID::fromResource)
        .collect(Collectors.toSet());
  }

  private static String revisionOf(HelmRepository repo) {
    return repo.getStatus() == null || repo.getStatus().artifact() == null
        ? null
        : repo.getStatus().artifact().revision();
  }
}
