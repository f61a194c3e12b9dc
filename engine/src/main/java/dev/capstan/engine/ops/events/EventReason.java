package dev.capstan.engine.ops.events;

/**
 * Why an event is recorded: one machine-readable reason per thing an operator wants to see in
 * {@code kubectl describe} or {@code kubectl get events}.
 */
public enum EventReason {
  /** A GitRepository fetched a revision it had not stored before. */
  NEW_ARTIFACT("NewArtifact", EventType.NORMAL),
  /** A GitRepository could not be fetched. */
  FETCH_FAILED("FetchFailed", EventType.WARNING),
  /** A Kustomization applied a new revision (and its objects became healthy if waited for). */
  APPLIED("ReconciliationSucceeded", EventType.NORMAL),
  /** Objects removed from the source were deleted from the cluster. */
  PRUNED("Pruned", EventType.NORMAL),
  /** The Kustomization's source has no artifact or cannot be found. */
  ARTIFACT_FAILED("ArtifactFailed", EventType.WARNING),
  /** The manifests could not be built. */
  BUILD_FAILED("BuildFailed", EventType.WARNING),
  /** The API server refused an apply. */
  APPLY_FAILED("ApplyFailed", EventType.WARNING),
  /** Objects did not become healthy before the timeout, or one failed. */
  HEALTH_CHECK_FAILED("HealthCheckFailed", EventType.WARNING),
  /** A health wait was ended by new input, which is reconciled at once. */
  HEALTH_CHECK_CANCELED("HealthCheckCanceled", EventType.NORMAL),
  /** A dependency is not ready yet. */
  DEPENDENCY_NOT_READY("DependencyNotReady", EventType.NORMAL),
  /** Objects removed from the source could not be deleted. */
  PRUNE_FAILED("PruneFailed", EventType.WARNING),
  /** Any other reconcile failure. */
  RECONCILIATION_FAILED("ReconciliationFailed", EventType.WARNING),
  /** Applied objects were changed by another writer; reported, not corrected (warn mode). */
  DRIFT_DETECTED("DriftDetected", EventType.WARNING),
  /** The drift reported before is gone. */
  NO_DRIFT_DETECTED("NoDriftDetected", EventType.NORMAL);

  private final String apiValue;
  private final EventType defaultType;

  EventReason(String apiValue, EventType defaultType) {
    this.apiValue = apiValue;
    this.defaultType = defaultType;
  }

  /** The value written to {@code Event.reason} (UpperCamelCase, as Kubernetes requires). */
  public String apiValue() {
    return apiValue;
  }

  /** The type this reason is normally recorded with. */
  public EventType defaultType() {
    return defaultType;
  }
}
