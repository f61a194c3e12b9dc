package dev.capstan.engine.controller;

import dev.capstan.engine.pipeline.Outcome;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;

/** An outcome as the controller framework takes it: no status update, requeued when it asks. */
final class Requeues {
  private Requeues() {}

  static <P extends HasMetadata> UpdateControl<P> of(Outcome outcome) {
    UpdateControl<P> control = UpdateControl.noUpdate();
    return outcome.requeueAfter().map(control::rescheduleAfter).orElse(control);
  }
}
