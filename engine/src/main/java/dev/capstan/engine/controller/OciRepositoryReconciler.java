package dev.capstan.engine.controller;

import dev.capstan.api.source.OCIRepository;
import dev.capstan.engine.pipeline.SourceFetch;
import dev.capstan.engine.shard.ShardGate;
import dev.capstan.engine.source.OciSourcePipeline;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import java.util.List;

/** Hands each OCIRepository to its pipeline and turns the outcome into a requeue. */
@ControllerConfiguration(name = "ocirepository")
public final class OciRepositoryReconciler extends SourceReconciler<OCIRepository>
    implements Reconciler<OCIRepository> {
  OciRepositoryReconciler(SourceFetch fetches, OciSourcePipeline pipeline, ShardGate shards) {
    super(fetches, pipeline, shards);
  }

  @Override
  public List<EventSource<?, OCIRepository>> prepareEventSources(
      EventSourceContext<OCIRepository> context) {
    return List.of(wakeUps(context));
  }
}
