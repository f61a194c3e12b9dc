package dev.capstan.engine.ops.events;

import dev.capstan.engine.conditions.Reason;

/**
 * Why an event is recorded: one machine-readable reason per thing an operator wants to see in
 * {@code kubectl describe} or {@code kubectl get events}. A Kustomization's events take the reasons
 * of its conditions ({@link OfCondition}); only the sources' events and the pruned objects' have
 * reasons of their own ({@link Own}).
 */
public sealed interface EventReason {

  /** A GitRepository or OCIRepository stored a revision it had not stored before. */
  EventReason NEW_ARTIFACT = Own.NEW_ARTIFACT;

  /** A GitRepository or OCIRepository could not be fetched. */
  EventReason FETCH_FAILED = Own.FETCH_FAILED;

  /** Objects removed from the source were deleted from the cluster. */
  EventReason PRUNED = Own.PRUNED;

  /** A Kustomization applied a new revision (and its objects became healthy if waited for). */
  EventReason APPLIED = of(Reason.SUCCEEDED);

  /** A Kustomization failed for a reason that has no event of its own. */
  EventReason RECONCILIATION_FAILED = of(Reason.RECONCILIATION_FAILED);

  /** Applied objects were changed by another writer; reported, not corrected (warn mode). */
  EventReason DRIFT_DETECTED = of(Reason.DRIFT_DETECTED);

  /** The drift reported before is gone. */
  EventReason NO_DRIFT_DETECTED = of(Reason.NO_DRIFT_DETECTED);

  /** The value written to {@code Event.reason} (UpperCamelCase, as Kubernetes requires). */
  String apiValue();

  /** The type this reason is normally recorded with. */
  EventType defaultType();

  /**
   * The event of a Kustomization condition with {@code reason}: of that reason, or
   * ReconciliationFailed for a reason that has no event of its own.
   */
  static EventReason of(Reason reason) {
    return new OfCondition(
        reason.event() == Reason.Event.NONE ? Reason.RECONCILIATION_FAILED : reason);
  }

  /** The reasons of events that tell of no condition. */
  enum Own implements EventReason {
    NEW_ARTIFACT("NewArtifact", EventType.NORMAL),
    FETCH_FAILED("FetchFailed", EventType.WARNING),
    PRUNED("Pruned", EventType.NORMAL);

    private final String apiValue;
    private final EventType defaultType;

    Own(String apiValue, EventType defaultType) {
      this.apiValue = apiValue;
      this.defaultType = defaultType;
    }

    @Override
    public String apiValue() {
      return apiValue;
    }

    @Override
    public EventType defaultType() {
      return defaultType;
    }
  }

  /** The event of a Kustomization condition's reason, which says how an Event tells of it. */
  record OfCondition(Reason reason) implements EventReason {
    public OfCondition {
      if (reason.event() == Reason.Event.NONE) {
        throw new IllegalArgumentException(reason + " is told as " + Reason.RECONCILIATION_FAILED);
      }
    }

    @Override
    public String apiValue() {
      return reason.text();
    }

    @Override
    public EventType defaultType() {
      return reason.event() == Reason.Event.WARNING ? EventType.WARNING : EventType.NORMAL;
    }
  }
}
