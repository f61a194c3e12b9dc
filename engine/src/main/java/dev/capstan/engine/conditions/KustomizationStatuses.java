package dev.capstan.engine.conditions;

import static dev.capstan.engine.conditions.ConditionTypes.DRIFTED;
import static dev.capstan.engine.conditions.ConditionTypes.FALSE;
import static dev.capstan.engine.conditions.ConditionTypes.HEALTHY;
import static dev.capstan.engine.conditions.ConditionTypes.READY;
import static dev.capstan.engine.conditions.ConditionTypes.RECONCILING;
import static dev.capstan.engine.conditions.ConditionTypes.STALLED;
import static dev.capstan.engine.conditions.ConditionTypes.TRUE;
import static dev.capstan.engine.conditions.ConditionTypes.UNKNOWN;

import dev.capstan.api.common.Snapshot;
import dev.capstan.api.kustomize.KustomizationStatus;
import dev.capstan.engine.conditions.Phase.Failed;
import dev.capstan.engine.conditions.Phase.Progressing;
import dev.capstan.engine.conditions.Phase.Succeeded;
import dev.capstan.engine.conditions.Phase.Waiting;
import dev.capstan.health.AggregateHealth;
import dev.capstan.health.status.Status;
import io.fabric8.kubernetes.api.model.Condition;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Computes a Kustomization's status from its previous status and what a reconcile observed. Pure:
 * the same inputs always give the same status.
 *
 * <ul>
 *   <li>Ready: Unknown/Progressing while running, True with the applied revision, False with the
 *       failing stage's reason.
 *   <li>Healthy: the health of the applied objects; False with the stage's reason when the revision
 *       could not be fetched, built or applied; otherwise kept as it was.
 *   <li>Reconciling: True while running or retrying; absent when done.
 *   <li>Stalled: True after a terminal failure; absent otherwise.
 *   <li>Drifted (drift detection mode warn only): True naming the objects another writer changed
 *       and their fields, False when none did; kept as it was until an apply runs to its end.
 * </ul>
 *
 * <p>{@code history} counts each reconcile that built a set and ended (applied and healthy, or
 * failed after the build) under its digest and Ready reason; {@code lastAppliedOriginRevision} is
 * the origin revision of what was last applied.
 */
public final class KustomizationStatuses {

  /** Failures before the objects reach the cluster; they make the applied set unhealthy too. */
  private static final Set<Reason> DEPLOY_FAILURES =
      Set.of(Reason.ARTIFACT_FAILED, Reason.BUILD_FAILED, Reason.APPLY_FAILED);

  private KustomizationStatuses() {}

  public static KustomizationStatus next(KustomizationStatus previous, Observation observed) {
    KustomizationStatus prev = previous == null ? empty() : previous;
    Phase phase = observed.phase();
    ConditionList conditions =
        new ConditionList(prev.conditions(), observed.generation(), observed.now());
    ready(conditions, phase);
    healthy(conditions, phase, observed.health());
    reconciling(conditions, phase);
    stalled(conditions, phase);
    drifted(conditions, observed.drift());
    return new KustomizationStatus(
        phase instanceof Progressing
            ? prev.observedGeneration()
            : Long.valueOf(observed.generation()),
        conditions.build(),
        phase instanceof Succeeded s ? s.revision() : prev.lastAppliedRevision(),
        observed.attemptedRevision() != null
            ? observed.attemptedRevision()
            : prev.lastAttemptedRevision(),
        observed.handledRequestedAt() != null
            ? observed.handledRequestedAt()
            : prev.lastHandledReconcileAt(),
        observed.inventory() != null ? observed.inventory() : prev.inventory(),
        phase instanceof Succeeded && observed.reconciled() != null
            ? observed.reconciled().originRevision()
            : prev.lastAppliedOriginRevision(),
        history(prev.history(), observed));
  }

  /**
   * The history with this reconcile counted when it built a set and ended (applied and healthy, or
   * failed after the build); as it was otherwise.
   */
  private static List<Snapshot> history(List<Snapshot> previous, Observation observed) {
    Observation.Reconciled reconciled = observed.reconciled();
    String outcome =
        observed.phase() instanceof Succeeded
            ? Reason.SUCCEEDED.text()
            : observed.phase() instanceof Failed f ? f.reason().text() : null;
    if (reconciled == null || outcome == null) {
      return previous;
    }
    return ReconcileHistory.record(
        previous,
        reconciled.digest(),
        outcome,
        observed.now(),
        reconciled.took(),
        reconciled.metadata());
  }

  /**
   * The status with only its Healthy condition recomputed from {@code health}: what the health
   * monitor writes between reconciles.
   */
  public static KustomizationStatus withHealth(
      KustomizationStatus previous, AggregateHealth health, long generation, Instant now) {
    KustomizationStatus prev = previous == null ? empty() : previous;
    ConditionList conditions = new ConditionList(prev.conditions(), generation, now);
    for (Condition condition :
        prev.conditions() == null ? List.<Condition>of() : prev.conditions()) {
      if (HEALTHY.equals(condition.getType())) {
        fromHealth(conditions, health);
      } else {
        conditions.keep(condition.getType());
      }
    }
    if (ConditionList.find(prev.conditions(), HEALTHY).isEmpty()) {
      fromHealth(conditions, health);
    }
    return new KustomizationStatus(
        prev.observedGeneration(),
        conditions.build(),
        prev.lastAppliedRevision(),
        prev.lastAttemptedRevision(),
        prev.lastHandledReconcileAt(),
        prev.inventory(),
        prev.lastAppliedOriginRevision(),
        prev.history());
  }

  /** The condition of a type in a status, if present. */
  public static Optional<Condition> condition(KustomizationStatus status, String type) {
    return status == null ? Optional.empty() : ConditionList.find(status.conditions(), type);
  }

  private static void ready(ConditionList conditions, Phase phase) {
    if (phase instanceof Progressing p) {
      conditions.set(READY, UNKNOWN, Reason.PROGRESSING, p.message());
    } else if (phase instanceof Succeeded s) {
      conditions.set(
          READY,
          TRUE,
          Reason.SUCCEEDED,
          "Applied revision: " + s.revision() + (s.warning().isEmpty() ? "" : "; " + s.warning()));
    } else if (phase instanceof Waiting w) {
      conditions.set(READY, FALSE, w.reason(), w.message());
    } else if (phase instanceof Failed f) {
      conditions.set(READY, FALSE, f.reason(), f.message());
    }
  }

  private static void healthy(ConditionList conditions, Phase phase, AggregateHealth health) {
    if (health != null) {
      fromHealth(conditions, health);
    } else if (phase instanceof Failed f && DEPLOY_FAILURES.contains(f.reason())) {
      conditions.set(HEALTHY, FALSE, f.reason(), f.message());
    } else {
      conditions.keep(HEALTHY);
    }
  }

  private static void fromHealth(ConditionList conditions, AggregateHealth health) {
    boolean missing =
        health.notCurrent().stream().anyMatch(h -> h.status().status() == Status.NotFound);
    if (health.status() == Status.Failed || missing) {
      conditions.set(HEALTHY, FALSE, Reason.HEALTH_CHECK_FAILED, health.message());
    } else if (health.status() == Status.Current) {
      conditions.set(HEALTHY, TRUE, Reason.HEALTHY, healthyMessage(health));
    } else {
      conditions.set(HEALTHY, UNKNOWN, Reason.PROGRESSING, health.message());
    }
  }

  /**
   * How many objects are healthy, and what the healthy ones still have to tell (a CronJob whose
   * last Job did not succeed is Current, as kstatus has it, but the user should hear of it).
   */
  private static String healthyMessage(AggregateHealth health) {
    String count =
        switch (health.evaluated()) {
          case 0 -> "No objects to check";
          case 1 -> "1 object is healthy";
          default -> health.evaluated() + " objects are healthy";
        };
    return health.notes().isEmpty() ? count : count + "; " + health.notesMessage();
  }

  private static void reconciling(ConditionList conditions, Phase phase) {
    // Done, or stopped for good: no Reconciling condition.
    if (phase instanceof Progressing p) {
      conditions.set(RECONCILING, TRUE, Reason.PROGRESSING, p.message());
    } else if (phase instanceof Waiting w) {
      conditions.set(RECONCILING, TRUE, w.reason(), w.message());
    } else if (phase instanceof Failed f && !f.terminal()) {
      conditions.set(RECONCILING, TRUE, Reason.PROGRESSING_WITH_RETRY, f.message());
    }
  }

  private static void stalled(ConditionList conditions, Phase phase) {
    if (phase instanceof Failed f && f.terminal()) {
      conditions.set(STALLED, TRUE, f.reason(), f.message());
    }
  }

  private static void drifted(ConditionList conditions, Drift drift) {
    if (drift == null) {
      conditions.keep(DRIFTED);
    } else if (drift.reported() && drift.objects().isEmpty()) {
      conditions.set(DRIFTED, FALSE, Reason.NO_DRIFT_DETECTED, "No drift detected");
    } else if (drift.reported()) {
      conditions.set(DRIFTED, TRUE, Reason.DRIFT_DETECTED, drift.message());
    }
  }

  private static KustomizationStatus empty() {
    return new KustomizationStatus(null, List.of(), null, null, null, null);
  }
}
