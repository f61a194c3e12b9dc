package dev.capstan.engine.controller;

import dev.capstan.api.source.GitRepository;
import dev.capstan.engine.core.NamespacedName;
import dev.capstan.engine.pipeline.SourceFetch;
import dev.capstan.engine.shard.ShardGate;
import dev.capstan.engine.source.SourcePipeline;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.IndexerResourceCache;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Hands each GitRepository to the source pipeline and turns its outcome into a requeue. Besides its
 * own changes, a GitRepository is reconciled when one it includes gets a new artifact.
 */
@ControllerConfiguration(name = "gitrepository")
public final class GitRepositoryReconciler extends SourceReconciler<GitRepository>
    implements Reconciler<GitRepository> {
  GitRepositoryReconciler(SourceFetch fetches, SourcePipeline pipeline, ShardGate shards) {
    super(fetches, pipeline, shards);
  }

  @Override
  public List<EventSource<?, GitRepository>> prepareEventSources(
      EventSourceContext<GitRepository> context) {
    IndexerResourceCache<GitRepository> cache = context.getPrimaryCache();
    cache.addIndexers(Map.of(Indexes.BY_INCLUDE, Indexes::includesOf));
    InformerEventSource<GitRepository, GitRepository> included =
        SecondaryInformers.of(
            GitRepository.class,
            "included",
            repo ->
                cache.byIndex(Indexes.BY_INCLUDE, NamespacedName.of(repo).toString()).stream()
                    .map(ResourceID::fromResource)
                    .collect(Collectors.toSet()),
            EventFilters::artifactChange,
            context);
    return List.of(included, wakeUps(context));
  }
}
