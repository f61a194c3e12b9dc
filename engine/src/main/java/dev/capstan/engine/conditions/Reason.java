package dev.capstan.engine.conditions;

import java.util.Arrays;
import java.util.Optional;

/**
 * The reasons written on a Kustomization's conditions: one per stage that can fail, plus the
 * reasons of the states that are not failures.
 */
public enum Reason {
  /** A reconcile is running or waiting for the applied objects to become healthy. */
  PROGRESSING("Progressing", Event.NONE),
  /** A transient failure will be retried. */
  PROGRESSING_WITH_RETRY("ProgressingWithRetry", Event.NONE),
  /** Everything was applied and is healthy. */
  SUCCEEDED("ReconciliationSucceeded", Event.NORMAL),
  /** Every watched object is Current. */
  HEALTHY("Healthy", Event.NONE),
  /** The spec cannot be used as written (e.g. an unreadable duration). */
  INVALID_SPEC("InvalidSpec", Event.NONE),
  /** A health check or dependency readiness expression does not compile. */
  INVALID_CEL_EXPRESSION("InvalidCELExpression", Event.NONE),
  /** Kustomizations depend on each other in a circle. */
  DEPENDENCY_CYCLE("DependencyCycle", Event.NONE),
  /** A dependency is missing or not ready yet. */
  DEPENDENCY_NOT_READY("DependencyNotReady", Event.NORMAL),
  /** The source is missing or has no artifact. */
  ARTIFACT_FAILED("ArtifactFailed", Event.WARNING),
  /** The manifests could not be built. */
  BUILD_FAILED("BuildFailed", Event.WARNING),
  /**
   * SOPS-encrypted files or objects could not be decrypted (or are encrypted with no decryption
   * set).
   */
  DECRYPTION_FAILED("DecryptionFailed", Event.NONE),
  /** The API server refused an object, or could not be reached. */
  APPLY_FAILED("ApplyFailed", Event.WARNING),
  /** Objects that left the source could not be deleted. */
  PRUNE_FAILED("PruneFailed", Event.WARNING),
  /** An object failed, or did not become healthy within the timeout. */
  HEALTH_CHECK_FAILED("HealthCheckFailed", Event.WARNING),
  /**
   * A health wait in progress was ended by new input (a new revision, a spec change, a reconcile
   * request, a changed ConfigMap or Secret it reads), which is reconciled at once.
   */
  HEALTH_CHECK_CANCELED("HealthCheckCanceled", Event.NORMAL),
  /**
   * The remote cluster of spec.kubeConfig cannot be used: its Secret or ConfigMap is missing or
   * refused, or its API server cannot be reached (Flux's reason for a client that cannot be built).
   */
  RECONCILIATION_FAILED("ReconciliationFailed", Event.WARNING),
  /** An unexpected error in the engine (a defect): retried at retryInterval, details in the log. */
  INTERNAL_ERROR("InternalError", Event.NONE),
  /** A reference the engine's settings forbid (a sourceRef to another namespace). */
  ACCESS_DENIED("AccessDenied", Event.NONE),
  /** Applied objects were changed or deleted by another writer (reported, not corrected). */
  DRIFT_DETECTED("DriftDetected", Event.WARNING),
  /** No applied object was changed by another writer. */
  NO_DRIFT_DETECTED("NoDriftDetected", Event.NORMAL),
  /** Being deleted: the Kustomizations that depend on it and are being deleted go first. */
  WAITING_FOR_DEPENDENTS("WaitingForDependents", Event.NONE),
  /**
   * Being deleted, its objects are deleted although a Kustomization that depends on it is still
   * there: it is not being deleted, made no progress in time, or is in a dependency cycle with it.
   */
  DEPENDENTS_NOT_DELETED("DependentsNotDeleted", Event.NONE);

  /** How an Event tells of a condition with this reason. */
  public enum Event {
    /** A Warning event with this reason. */
    WARNING,
    /** A Normal event with this reason. */
    NORMAL,
    /** No event reason of its own: a failure with it is told as ReconciliationFailed. */
    NONE
  }

  private final String text;
  private final Event event;

  Reason(String text, Event event) {
    this.text = text;
    this.event = event;
  }

  /** The reason whose written value is {@code text} (a condition read back from a status). */
  public static Optional<Reason> ofText(String text) {
    return Arrays.stream(values()).filter(r -> r.text.equals(text)).findFirst();
  }

  /** How an Event tells of a condition with this reason. */
  public Event event() {
    return event;
  }

  /** The CamelCase value written on the condition. */
  public String text() {
    return text;
  }
}
