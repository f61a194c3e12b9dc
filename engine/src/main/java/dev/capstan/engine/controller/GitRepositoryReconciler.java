package dev.capstan.engine.controller;

import dev.capstan.api.source.GitRepository;
import dev.capstan.engine.pipeline.Outcome;
import dev.capstan.engine.pipeline.SourcePipeline;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;

/** Hands each GitRepository to the source pipeline and turns its outcome into a requeue. */
@ControllerConfiguration(name = "gitrepository")
public final class GitRepositoryReconciler implements Reconciler<GitRepository> {
  private final SourcePipeline pipeline;

  GitRepositoryReconciler(SourcePipeline pipeline) {
    this.pipeline = pipeline;
  }

  @Override
  public UpdateControl<GitRepository> reconcile(GitRepository repo, Context<GitRepository> context) {
    Outcome outcome = pipeline.reconcile(repo);
    UpdateControl<GitRepository> control = UpdateControl.noUpdate();
    return outcome.requeueAfter().map(control::rescheduleAfter).orElse(control);
  }
}
