package dev.capstan.health.cel;

import dev.capstan.health.status.BadObjectException;
import dev.capstan.health.status.CheckedStatusFields;
import dev.capstan.health.status.Condition;
import dev.capstan.health.status.GenerationCheck;
import dev.capstan.health.status.ObjectView;
import dev.capstan.health.status.ResourceStatus;
import dev.capstan.health.status.Status;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One compiled {@code healthCheckExprs} entry. Evaluation: the observedGeneration gate; for a
 * built-in entry, an object whose status holds nothing the entry reads is InProgress unless current
 * holds ({@link #awaitingStatus}); then inProgress, failed and current in that order: the first
 * true wins, none true is InProgress, and an evaluation error stops at once and makes the status
 * Unknown.
 */
public final class CelHealthCheck {
  public static final String AWAITING_STATUS = "AwaitingStatus";

  /** The reason when none of the expressions is true. */
  public static final String PENDING = "HealthCheckPending";

  private final HealthCheckExpr entry;
  private final CompiledExpr current;
  private final CompiledExpr inProgress;
  private final CompiledExpr failed;
  private final CheckedStatusFields awaitedStatus;
  private final boolean builtin;

  /**
   * @param builtin whether this is a built-in check: an object whose status holds nothing the
   *     expressions read is InProgress rather than evaluated, and an object without {@code spec}
   *     reads as one with an empty spec (a user's check keeps the RFC's rule that a missing
   *     top-level field is an evaluation error)
   */
  CelHealthCheck(
      HealthCheckExpr entry,
      CompiledExpr current,
      CompiledExpr inProgress,
      CompiledExpr failed,
      boolean builtin) {
    this.entry = entry;
    this.current = current;
    this.inProgress = inProgress;
    this.failed = failed;
    this.awaitedStatus = builtin ? statusReads(current, inProgress, failed) : null;
    this.builtin = builtin;
  }

  private static CheckedStatusFields statusReads(CompiledExpr... exprs) {
    List<String> paths = new ArrayList<>();
    for (CompiledExpr expr : exprs) {
      if (expr != null) {
        paths.addAll(expr.fieldPaths());
      }
    }
    return CheckedStatusFields.of(paths);
  }

  HealthCheckExpr entry() {
    return entry;
  }

  public ResourceStatus evaluate(ObjectView object) {
    ResourceStatus generation = GenerationCheck.lenient(object, kindOf(object));
    if (generation != null) {
      return generation;
    }
    Map<String, ?> fields = builtin ? withSpec(object.object()) : object.object();
    if (awaitedStatus != null && awaitedStatus.unreported(fields.get("status"))) {
      return awaitingStatus(fields);
    }
    try {
      if (inProgress != null && inProgress.evaluate(fields)) {
        return ResourceStatus.inProgress(
            "HealthCheckInProgress", "inProgress expression is true" + readyDetail(object));
      }
      if (failed != null && failed.evaluate(fields)) {
        return ResourceStatus.failed(
            "HealthCheckFailed", "failed expression is true" + readyDetail(object));
      }
      if (current.evaluate(fields)) {
        return ResourceStatus.current("current expression is true");
      }
    } catch (CompiledExpr.ExprEvaluationException e) {
      return new ResourceStatus(Status.Unknown, "HealthCheckError", e.getMessage());
    }
    return ResourceStatus.inProgress(
        PENDING, "no health check expression is true yet" + readyDetail(object));
  }

  /**
   * A built-in entry may read {@code spec} (replicas, a pause flag) under {@code has(...)}, which
   * cannot guard a missing top-level field; a CRD need not require a spec, and a valid object
   * without one must get a status, not an evaluation error.
   */
  private static Map<String, ?> withSpec(Map<String, ?> fields) {
    if (fields.get("spec") != null) {
      return fields;
    }
    Map<String, Object> copy = new LinkedHashMap<>(fields);
    copy.put("spec", Map.of());
    return copy;
  }

  /**
   * A built-in check of an object whose controller has not reported what the check reads: not
   * Failed and not an error, since nothing has been reported yet, but Current when the current
   * expression holds all the same (an OCI HelmRepository never gets a status and is Current from
   * its spec alone).
   */
  private ResourceStatus awaitingStatus(Map<String, ?> fields) {
    try {
      if (current.evaluate(fields)) {
        return ResourceStatus.current("current expression is true");
      }
    } catch (CompiledExpr.ExprEvaluationException missingStatus) {
      // The expression needs the status that has not been reported: keep waiting.
    }
    return ResourceStatus.inProgress(
        AWAITING_STATUS, "waiting for the controller to report status");
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
