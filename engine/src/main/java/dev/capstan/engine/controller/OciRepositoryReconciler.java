package dev.capstan.engine.controller;

import dev.capstan.api.source.OCIRepository;
import dev.capstan.engine.source.OciSourcePipeline;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;

/** Hands each OCIRepository to its pipeline and turns the outcome into a requeue. */
@ControllerConfiguration(name = "ocirepository")
public final class OciRepositoryReconciler implements Reconciler<OCIRepository> {
  private final OciSourcePipeline pipeline;

  OciRepositoryReconciler(OciSourcePipeline pipeline) {
    this.pipeline = pipeline;
  }

  @Override
  public UpdateControl<OCIRepository> reconcile(
      OCIRepository repo, Context<OCIRepository> context) {
    return Requeues.of(pipeline.reconcile(repo));
  }
}
