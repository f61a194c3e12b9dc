package dev.capstan.engine.conditions;

/**
 * The reasons written on a Kustomization's conditions: one per stage that can fail, plus the
 * reasons of the states that are not failures.
 */
public enum Reason {
  /** A reconcile is running or waiting for the applied objects to become healthy. */
  PROGRESSING("Progressing"),
  /** A transient failure will be retried. */
  PROGRESSING_WITH_RETRY("ProgressingWithRetry"),
  /** Everything was applied and is healthy. */
  SUCCEEDED("ReconciliationSucceeded"),
  /** Every watched object is Current. */
  HEALTHY("Healthy"),
  /** The spec cannot be used as written (e.g. an unreadable duration). */
  INVALID_SPEC("InvalidSpec"),
  /** A health check or dependency readiness expression does not compile. */
  INVALID_CEL_EXPRESSION("InvalidCELExpression"),
  /** Kustomizations depend on each other in a circle. */
  DEPENDENCY_CYCLE("DependencyCycle"),
  /** A dependency is missing or not ready yet. */
  DEPENDENCY_NOT_READY("DependencyNotReady"),
  /** The source is missing or has no artifact. */
  ARTIFACT_FAILED("ArtifactFailed"),
  /** The manifests could not be built. */
  BUILD_FAILED("BuildFailed"),
  /**
   * SOPS-encrypted files or objects could not be decrypted (or are encrypted with no decryption
   * set).
   */
  DECRYPTION_FAILED("DecryptionFailed"),
  /** The API server refused an object, or could not be reached. */
  APPLY_FAILED("ApplyFailed"),
  /** Objects that left the source could not be deleted. */
  PRUNE_FAILED("PruneFailed"),
  /** An object failed, or did not become healthy within the timeout. */
  HEALTH_CHECK_FAILED("HealthCheckFailed"),
  /**
   * A health wait in progress was ended by new input (a new revision, a spec change, a reconcile
   * request, a changed ConfigMap or Secret it reads), which is reconciled at once.
   */
  HEALTH_CHECK_CANCELED("HealthCheckCanceled"),
  /**
   * The remote cluster of spec.kubeConfig cannot be used: its Secret or ConfigMap is missing or
   * refused, or its API server cannot be reached (Flux's reason for a client that cannot be built).
   */
  RECONCILIATION_FAILED("ReconciliationFailed"),
  /** An unexpected error in the engine (a defect): retried at retryInterval, details in the log. */
  INTERNAL_ERROR("InternalError"),
  /** A reference the engine's settings forbid (a sourceRef to another namespace). */
  ACCESS_DENIED("AccessDenied"),
  /** Applied objects were changed or deleted by another writer (reported, not corrected). */
  DRIFT_DETECTED("DriftDetected"),
  /** No applied object was changed by another writer. */
  NO_DRIFT_DETECTED("NoDriftDetected"),
  /** Being deleted: the Kustomizations that depend on it and are being deleted go first. */
  WAITING_FOR_DEPENDENTS("WaitingForDependents"),
  /**
   * Being deleted, its objects are deleted although a Kustomization that depends on it is still
   * there: it is not being deleted, made no progress in time, or is in a dependency cycle with it.
   */
  DEPENDENTS_NOT_DELETED("DependentsNotDeleted");

  private final String text;

  Reason(String text) {
    this.text = text;
  }

  /** The CamelCase value written on the condition. */
  public String text() {
    return text;
  }
}
