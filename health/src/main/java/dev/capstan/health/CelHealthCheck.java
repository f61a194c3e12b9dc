package dev.capstan.health;

import java.util.Map;

/**
 * One compiled {@code healthCheckExprs} entry. Evaluation: the observedGeneration gate, then
 * inProgress, failed and current in that order; the first true wins, none true is InProgress, and
 * an evaluation error stops at once and makes the status Unknown.
 */
final class CelHealthCheck {
  private final HealthCheckExpr entry;
  private final CompiledExpr current;
  private final CompiledExpr inProgress;
  private final CompiledExpr failed;

  CelHealthCheck(
      HealthCheckExpr entry, CompiledExpr current, CompiledExpr inProgress, CompiledExpr failed) {
    this.entry = entry;
    this.current = current;
    this.inProgress = inProgress;
    this.failed = failed;
  }

  HealthCheckExpr entry() {
    return entry;
  }

  ResourceStatus evaluate(ObjectView object) {
    ResourceStatus generation = GenerationCheck.lenient(object, kindOf(object));
    if (generation != null) {
      return generation;
    }
    Map<String, ?> fields = object.object();
    try {
      if (inProgress != null && inProgress.evaluate(fields)) {
        return ResourceStatus.inProgress("HealthCheckInProgress", "inProgress expression is true" + readyDetail(object));
      }
      if (failed != null && failed.evaluate(fields)) {
        return ResourceStatus.failed("HealthCheckFailed", "failed expression is true" + readyDetail(object));
      }
      if (current.evaluate(fields)) {
        return ResourceStatus.current("current expression is true");
      }
    } catch (CompiledExpr.ExprEvaluationException e) {
      return new ResourceStatus(Status.Unknown, "HealthCheckError", e.getMessage());
    }
    return ResourceStatus.inProgress(
        "HealthCheckPending", "no health check expression is true yet" + readyDetail(object));
  }

  private static String kindOf(ObjectView object) {
    return object.object().get("kind") instanceof String kind ? kind : "Object";
  }

  /** The Ready condition's message, if any, so that aggregated messages say why. */
  private static String readyDetail(ObjectView object) {
    try {
      Condition ready = object.condition("Ready");
      return ready == null || ready.message().isEmpty() ? "" : "; Ready: " + ready.message();
    } catch (BadObjectException unreadableConditions) {
      return "";
    }
  }
}
