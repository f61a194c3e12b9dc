package dev.capstan.engine.controller;

import dev.capstan.api.common.ReconciledSpec;
import dev.capstan.engine.pipeline.SourceFetch;
import dev.capstan.engine.pipeline.SourceKind;
import dev.capstan.engine.shard.ShardGate;
import io.fabric8.kubernetes.client.CustomResource;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;

/**
 * The reconcile every source kind's controller has: the shared fetch for its {@link SourceKind},
 * the outcome turned into a requeue. Each kind's controller is a class of its own because the
 * controller framework reads its name and resource type from that class.
 */
abstract class SourceReconciler<R extends CustomResource<? extends ReconciledSpec, ?>> {
  private final SourceFetch fetches;
  private final SourceKind<R> kind;
  final ShardGate shards;

  SourceReconciler(SourceFetch fetches, SourceKind<R> kind, ShardGate shards) {
    this.fetches = fetches;
    this.kind = kind;
    this.shards = shards;
  }

  /**
   * A deletion (reported only to the kinds whose controller asks for every event, without a
   * finalizer) is handed to the kind; anything else is {@link #reconcileLive}, once the gate lets
   * it start (an unsharded engine's, when this controller's caches filled).
   */
  public UpdateControl<R> reconcile(R source, Context<R> context) {
    if (context.isPrimaryResourceDeleted()) {
      if (source != null) {
        kind.deleted(source);
      }
      return UpdateControl.noUpdate();
    }
    if (!shards.started(source)) {
      return UpdateControl.noUpdate(); // woken once the start checked the caches (wakeUps)
    }
    return reconcileLive(source);
  }

  /** One reconcile of a source that exists: the shared fetch. */
  UpdateControl<R> reconcileLive(R source) {
    return Requeues.of(fetches.reconcile(kind, source));
  }

  /**
   * Reconciles of this kind's sources asked for from outside the framework; among them, those in
   * the slots this replica has just taken over, so that their new owner fetches them and writes
   * their status at once (a commit made while the old owner went away is applied then, not at the
   * source's next interval).
   */
  WakeUpEventSource<R> wakeUps(EventSourceContext<R> context) {
    WakeUpEventSource<R> wakeUps = new WakeUpEventSource<>(context.getPrimaryResourceClass());
    shards.wakeOnAcquired(context.getPrimaryCache()::list, wakeUps::wake);
    return wakeUps;
  }
}
