package dev.capstan.engine.controller;

import dev.capstan.api.common.ReconciledSpec;
import dev.capstan.engine.pipeline.SourceFetch;
import dev.capstan.engine.pipeline.SourceKind;
import io.fabric8.kubernetes.client.CustomResource;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;

/**
 * The reconcile every source kind's controller has: the shared fetch for its {@link SourceKind},
 * the outcome turned into a requeue. Each kind's controller is a class of its own because the
 * controller framework reads its name and resource type from that class.
 */
abstract class SourceReconciler<R extends CustomResource<? extends ReconciledSpec, ?>> {
  private final SourceFetch fetches;
  private final SourceKind<R> kind;

  SourceReconciler(SourceFetch fetches, SourceKind<R> kind) {
    this.fetches = fetches;
    this.kind = kind;
  }

  /**
   * A deletion (reported only to the kinds whose controller asks for every event, without a
   * finalizer) is handed to the kind; anything else is {@link #reconcileLive}.
   */
  public UpdateControl<R> reconcile(R source, Context<R> context) {
    if (context.isPrimaryResourceDeleted()) {
      if (source != null) {
        kind.deleted(source);
      }
      return UpdateControl.noUpdate();
    }
    return reconcileLive(source);
  }

  /** One reconcile of a source that exists: the shared fetch. */
  UpdateControl<R> reconcileLive(R source) {
    return Requeues.of(fetches.reconcile(kind, source));
  }
}
