package dev.capstan.engine.controller;

import dev.capstan.api.source.HelmRepository;
import dev.capstan.engine.pipeline.SourceFetch;
import dev.capstan.engine.shard.ShardGate;
import dev.capstan.engine.source.HelmRepositoryPipeline;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import java.util.List;

/**
 * Hands each HelmRepository to its pipeline and turns the outcome into a requeue. Told of deletions
 * too (without a finalizer, which would hold a namespace's deletion while no engine runs), so that
 * a deleted repository's stored index goes with it; a repository of type oci is recorded, not
 * fetched.
 */
@ControllerConfiguration(name = "helmrepository", triggerReconcilerOnAllEvents = true)
public final class HelmRepositoryReconciler extends SourceReconciler<HelmRepository>
    implements Reconciler<HelmRepository> {
  private final HelmRepositoryPipeline pipeline;

  HelmRepositoryReconciler(SourceFetch fetches, HelmRepositoryPipeline pipeline, ShardGate shards) {
    super(fetches, pipeline, shards);
    this.pipeline = pipeline;
  }

  @Override
  UpdateControl<HelmRepository> reconcileLive(HelmRepository repo) {
    if (HelmRepositoryPipeline.oci(repo) && !repo.getSpec().suspended()) {
      return Requeues.of(pipeline.recordOci(repo));
    }
    return super.reconcileLive(repo);
  }

  @Override
  public List<EventSource<?, HelmRepository>> prepareEventSources(
      EventSourceContext<HelmRepository> context) {
    return List.of(wakeUps(context));
  }
}
