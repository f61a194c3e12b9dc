package dev.capstan.engine.controller;

import dev.capstan.api.source.Bucket;
import dev.capstan.engine.pipeline.SourceFetch;
import dev.capstan.engine.shard.ShardGate;
import dev.capstan.engine.source.BucketPipeline;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import java.util.List;

/**
 * Hands each Bucket to its pipeline and turns the outcome into a requeue. Told of deletions too
 * (without a finalizer, as a HelmRepository), so that a deleted Bucket's stored objects go with it.
 */
@ControllerConfiguration(name = "bucket", triggerReconcilerOnAllEvents = true)
public final class BucketReconciler extends SourceReconciler<Bucket> implements Reconciler<Bucket> {
  BucketReconciler(SourceFetch fetches, BucketPipeline pipeline, ShardGate shards) {
    super(fetches, pipeline, shards);
  }

  @Override
  public List<EventSource<?, Bucket>> prepareEventSources(EventSourceContext<Bucket> context) {
    return List.of(wakeUps(context));
  }
}
