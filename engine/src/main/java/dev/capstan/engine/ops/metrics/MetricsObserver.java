package dev.capstan.engine.ops.metrics;

import dev.capstan.engine.core.NamespacedName;
import dev.capstan.engine.pipeline.Outcome;
import dev.capstan.engine.pipeline.PipelineObserver;
import java.time.Duration;

/**
 * Feeds {@link Metrics} from the pipelines, and tells the controller metrics how reconciles ended.
 */
public final class MetricsObserver implements PipelineObserver {
  private final Metrics metrics;
  private final ControllerMetrics controllerMetrics;

  public MetricsObserver(Metrics metrics, ControllerMetrics controllerMetrics) {
    this.metrics = metrics;
    this.controllerMetrics = controllerMetrics;
  }

  @Override
  public void reconciled(String kind, NamespacedName key, Outcome.Kind outcome) {
    controllerMetrics.reported(kind, key, result(outcome));
  }

  @Override
  public void objectsChanged(NamespacedName kustomization, int applied, int pruned) {
    metrics.objectsChanged(
        "Kustomization", kustomization.namespace(), kustomization.name(), applied, pruned);
  }

  @Override
  public void chartRendered(String kind) {
    metrics.chartRendered(kind);
  }

  @Override
  public void fetched(NamespacedName repository, boolean succeeded, Duration took) {
    metrics.fetched(repository.namespace(), repository.name(), result(succeeded), took);
  }

  @Override
  public void healthWaited(NamespacedName kustomization, boolean succeeded, Duration took) {
    metrics.healthWaited(kustomization.namespace(), kustomization.name(), result(succeeded), took);
  }

  private static ReconcileOutcome result(boolean succeeded) {
    return succeeded ? ReconcileOutcome.SUCCESS : ReconcileOutcome.FAILURE;
  }

  /**
   * A health wait in progress is progress, not a failure; suspension did nothing; waiting for a
   * dependency is counted apart, so that a chain stuck on one is seen.
   */
  static ReconcileOutcome result(Outcome.Kind outcome) {
    return switch (outcome) {
      case SUCCEEDED, WAITING -> ReconcileOutcome.SUCCESS;
      case TRANSIENT, TERMINAL -> ReconcileOutcome.FAILURE;
      case SUSPENDED -> ReconcileOutcome.SKIPPED;
      case DEPENDENCY_NOT_READY -> ReconcileOutcome.DEPENDENCY_NOT_READY;
    };
  }
}
