package dev.capstan.engine.ops.events;

import dev.capstan.engine.conditions.Reason;
import java.util.EnumMap;
import java.util.Map;

/**
 * Why an event is recorded: one machine-readable reason per thing an operator wants to see in
 * {@code kubectl describe} or {@code kubectl get events}. A Kustomization's events take the reasons
 * of its conditions ({@link #of(Reason)}); only the sources' events and the pruned objects' have
 * reasons of their own.
 */
public final class EventReason {
  private static final Map<Reason, EventReason> OF_CONDITIONS = new EnumMap<>(Reason.class);

  static {
    for (Reason reason : Reason.values()) {
      switch (reason.event()) {
        case WARNING ->
            OF_CONDITIONS.put(reason, new EventReason(reason.text(), EventType.WARNING));
        case NORMAL -> OF_CONDITIONS.put(reason, new EventReason(reason.text(), EventType.NORMAL));
        case NONE -> {}
      }
    }
  }

  /** A GitRepository or OCIRepository stored a revision it had not stored before. */
  public static final EventReason NEW_ARTIFACT = new EventReason("NewArtifact", EventType.NORMAL);

  /** A GitRepository or OCIRepository could not be fetched. */
  public static final EventReason FETCH_FAILED = new EventReason("FetchFailed", EventType.WARNING);

  /** Objects removed from the source were deleted from the cluster. */
  public static final EventReason PRUNED = new EventReason("Pruned", EventType.NORMAL);

  /** A Kustomization applied a new revision (and its objects became healthy if waited for). */
  public static final EventReason APPLIED = of(Reason.SUCCEEDED);

  /** A Kustomization failed for a reason that has no event reason of its own. */
  public static final EventReason RECONCILIATION_FAILED = of(Reason.RECONCILIATION_FAILED);

  /** Applied objects were changed by another writer; reported, not corrected (warn mode). */
  public static final EventReason DRIFT_DETECTED = of(Reason.DRIFT_DETECTED);

  /** The drift reported before is gone. */
  public static final EventReason NO_DRIFT_DETECTED = of(Reason.NO_DRIFT_DETECTED);

  private final String apiValue;
  private final EventType defaultType;

  private EventReason(String apiValue, EventType defaultType) {
    this.apiValue = apiValue;
    this.defaultType = defaultType;
  }

  /**
   * The event of a Kustomization condition with {@code reason}: of that reason, or
   * ReconciliationFailed for a reason that has no event of its own.
   */
  public static EventReason of(Reason reason) {
    EventReason own = OF_CONDITIONS.get(reason);
    return own != null ? own : OF_CONDITIONS.get(Reason.RECONCILIATION_FAILED);
  }

  /** The value written to {@code Event.reason} (UpperCamelCase, as Kubernetes requires). */
  public String apiValue() {
    return apiValue;
  }

  /** The type this reason is normally recorded with. */
  public EventType defaultType() {
    return defaultType;
  }

  @Override
  public String toString() {
    return apiValue;
  }
}
