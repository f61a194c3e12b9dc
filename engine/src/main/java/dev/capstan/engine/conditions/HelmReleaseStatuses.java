package dev.capstan.engine.conditions;

import static dev.capstan.engine.conditions.ConditionTypes.FALSE;
import static dev.capstan.engine.conditions.ConditionTypes.HEALTHY;
import static dev.capstan.engine.conditions.ConditionTypes.READY;
import static dev.capstan.engine.conditions.ConditionTypes.STALLED;
import static dev.capstan.engine.conditions.ConditionTypes.TRUE;
import static dev.capstan.engine.conditions.ConditionTypes.UNKNOWN;

import dev.capstan.api.helm.HelmReleaseStatus;
import dev.capstan.api.helm.HelmReleaseStatus.ReleaseAction;
import dev.capstan.api.helm.ReleaseSnapshot;
import dev.capstan.engine.conditions.ReleaseObservation.Attempted;
import dev.capstan.engine.conditions.ReleaseObservation.Failed;
import dev.capstan.engine.conditions.ReleaseObservation.HealthState;
import dev.capstan.engine.conditions.ReleaseObservation.HookRunning;
import dev.capstan.engine.conditions.ReleaseObservation.LiveHealth;
import dev.capstan.engine.conditions.ReleaseObservation.Released;
import dev.capstan.engine.conditions.ReleaseObservation.Remediated;
import dev.capstan.engine.conditions.ReleaseObservation.Retargeted;
import dev.capstan.engine.conditions.ReleaseObservation.Stalled;
import dev.capstan.engine.conditions.ReleaseObservation.TestSeen;
import dev.capstan.engine.conditions.ReleaseObservation.WaitFailed;
import dev.capstan.engine.conditions.ReleaseObservation.Waiting;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A pure function from a HelmRelease's previous status and what a reconcile observed to its next
 * status: Ready, Released and Healthy, the history of release snapshots as Flux keeps it (newest
 * first, up to the last successful release), what was last attempted and the failure counters;
 * Remediated after a rollback or uninstall of a failed release, Stalled when no retry remains, and
 * Drifted when drift detection looked at the objects of an unchanged release.
 */
public final class HelmReleaseStatuses {
  /** The condition Flux writes for the outcome of the last install or upgrade. */
  public static final String RELEASED = "Released";

  /** The condition Flux writes for the outcome of the last remediation of a failed release. */
  public static final String REMEDIATED = "Remediated";

  private static final String DEPLOYED = "deployed";
  private static final String SUPERSEDED = "superseded";

  private HelmReleaseStatuses() {}

  public static HelmReleaseStatus next(HelmReleaseStatus previous, ReleaseObservation seen) {
    HelmReleaseStatus prev = previous == null ? empty() : previous;
    if (seen.phase() instanceof LiveHealth) {
      return withConditions(prev, liveHealth(prev, seen));
    }
    Attempted attempted = seen.attempted() == null ? lastAttempted(prev) : seen.attempted();
    boolean retargeted = seen.phase() instanceof Retargeted;
    // as Flux, a release uninstalled because its target changed takes its history and failures
    FailureCounts counters =
        retargeted ? new FailureCounts(0, 0, 0) : counters(prev, seen, attempted);
    List<ReleaseSnapshot> history =
        retargeted
            ? List.of()
            : ReleaseTestCondition.withTestHooks(
                history(prev.history(), seen.released(), seen.maxHistory()), seen.tests());
    return new HelmReleaseStatus(
        seen.generation(),
        conditions(prev, seen),
        seen.handledRequestedAt() == null
            ? prev.lastHandledReconcileAt()
            : seen.handledRequestedAt(),
        prev.lastHandledForceAt(),
        prev.lastHandledResetAt(),
        seen.helmChart(),
        seen.storageNamespace(),
        history.isEmpty() ? null : history,
        seen.attempted() == null ? prev.lastAttemptedGeneration() : Long.valueOf(seen.generation()),
        attempted.revision(),
        attempted.revisionDigest(),
        attempted.valuesChecksum(),
        attempted.configDigest(),
        attempted.action(),
        attempted.actionDuration() == null
            ? prev.lastAttemptedReleaseActionDuration()
            : attempted.actionDuration().toMillis() / 1000.0 + "s",
        lastReleaseRevision(prev, seen.released()),
        nullIfZero(counters.failures()),
        nullIfZero(counters.installFailures()),
        nullIfZero(counters.upgradeFailures()),
        seen.renderDigests() == null
            ? prev.observedCommonMetadataDigest()
            : seen.renderDigests().commonMetadata(),
        seen.renderDigests() == null
            ? prev.observedPostRenderersDigest()
            : seen.renderDigests().postRenderers(),
        seen.inventory() == null ? prev.inventory() : seen.inventory());
  }

  /** The condition {@code type} of {@code status}, if it has one. */
  public static Optional<Condition> condition(HelmReleaseStatus status, String type) {
    return status == null ? Optional.empty() : ConditionList.find(status.conditions(), type);
  }

  private static List<Condition> conditions(HelmReleaseStatus prev, ReleaseObservation seen) {
    ConditionList list = new ConditionList(prev.conditions(), seen.generation(), seen.now());
    ReleaseObservation.ReleasePhase phase = seen.phase();
    if (phase instanceof Failed f) {
      list.set(READY, FALSE, f.reason().text(), f.message());
      if (f.releaseFailed()) {
        list.set(RELEASED, FALSE, f.reason().text(), f.message());
      } else {
        list.keep(RELEASED);
        list.keep(REMEDIATED);
      }
      healthOrKept(list, seen);
    } else if (phase instanceof WaitFailed w) {
      list.set(READY, FALSE, ReleaseReason.HEALTH_CHECK_FAILED.text(), w.message());
      list.set(RELEASED, FALSE, w.reason().text(), w.message());
      healthOrKept(list, seen);
    } else if (phase instanceof Remediated r) {
      list.set(READY, FALSE, r.reason().text(), r.message());
      list.keep(RELEASED);
      healthOrKept(list, seen);
      list.set(REMEDIATED, r.succeeded() ? TRUE : FALSE, r.reason().text(), r.message());
    } else if (phase instanceof Stalled s) {
      stalled(list, prev, s);
    } else if (phase instanceof Retargeted r) {
      list.set(READY, FALSE, ReleaseReason.UNINSTALL_SUCCEEDED.text(), r.message());
      list.set(RELEASED, FALSE, ReleaseReason.UNINSTALL_SUCCEEDED.text(), r.message());
      // the objects it judged are gone; the install at the new target looks at its own
      list.set(HEALTHY, UNKNOWN, ReleaseReason.UNINSTALL_SUCCEEDED.text(), r.message());
      list.keep(REMEDIATED);
    } else if (phase instanceof Waiting w) {
      list.set(READY, FALSE, w.reason().text(), w.message());
      list.keep(RELEASED);
      list.keep(HEALTHY);
      list.keep(REMEDIATED);
    } else if (phase instanceof HookRunning h) {
      list.set(READY, UNKNOWN, ReleaseReason.PROGRESSING.text(), h.message());
      list.keep(RELEASED);
      list.keep(HEALTHY);
      list.keep(REMEDIATED);
    } else if (phase instanceof Released r) {
      list.set(RELEASED, TRUE, r.reason().text(), r.message());
      readyFromHealth(list, seen, r.reason().text(), r.message());
    } else {
      Optional<Condition> released = ConditionList.find(prev.conditions(), RELEASED);
      list.keep(RELEASED);
      readyFromHealth(
          list,
          seen,
          released.map(Condition::getReason).orElse(ReleaseReason.INSTALL_SUCCEEDED.text()),
          released.map(Condition::getMessage).orElse("Release unchanged"));
    }
    ReleaseDriftCondition.set(list, seen.drift());
    ReleaseTestCondition.set(list, seen.tests());
    return list.build();
  }

  /**
   * The conditions with Healthy alone from {@code seen}'s health, where it was (or last); every
   * other condition kept as it was.
   */
  private static List<Condition> liveHealth(HelmReleaseStatus prev, ReleaseObservation seen) {
    ConditionList list = new ConditionList(prev.conditions(), seen.generation(), seen.now());
    List<Condition> before = prev.conditions() == null ? List.of() : prev.conditions();
    for (Condition condition : before) {
      if (HEALTHY.equals(condition.getType())) {
        healthOrKept(list, seen);
      } else {
        list.keep(condition.getType());
      }
    }
    if (ConditionList.find(before, HEALTHY).isEmpty()) {
      healthOrKept(list, seen);
    }
    return list.build();
  }

  private static HelmReleaseStatus withConditions(HelmReleaseStatus s, List<Condition> conditions) {
    return new HelmReleaseStatus(
        s.observedGeneration(),
        conditions,
        s.lastHandledReconcileAt(),
        s.lastHandledForceAt(),
        s.lastHandledResetAt(),
        s.helmChart(),
        s.storageNamespace(),
        s.history(),
        s.lastAttemptedGeneration(),
        s.lastAttemptedRevision(),
        s.lastAttemptedRevisionDigest(),
        s.lastAttemptedValuesChecksum(),
        s.lastAttemptedConfigDigest(),
        s.lastAttemptedReleaseAction(),
        s.lastAttemptedReleaseActionDuration(),
        s.lastReleaseRevision(),
        s.failures(),
        s.installFailures(),
        s.upgradeFailures(),
        s.observedCommonMetadataDigest(),
        s.observedPostRenderersDigest(),
        s.inventory());
  }

  /**
   * Stalled: the conditions of the failure or remediation that used the last retry stay, Ready
   * False with them (or with the stall when Ready was not False).
   */
  private static void stalled(ConditionList list, HelmReleaseStatus prev, Stalled s) {
    if (condition(prev, READY).filter(c -> FALSE.equals(c.getStatus())).isPresent()) {
      list.keep(READY);
    } else {
      list.set(READY, FALSE, s.reason().text(), s.message());
    }
    list.keep(RELEASED);
    list.keep(HEALTHY);
    list.keep(REMEDIATED);
    list.set(STALLED, TRUE, s.reason().text(), s.message());
  }

  /** Ready as the health of what was released says; Healthy with it. */
  private static void readyFromHealth(
      ConditionList list, ReleaseObservation seen, String reason, String message) {
    HealthState state = seen.healthState() == null ? HealthState.CURRENT : seen.healthState();
    String health = seen.health() == null ? "" : seen.health().message();
    switch (state) {
      case CURRENT, UNSETTLED -> list.set(READY, TRUE, reason, message);
      case IN_PROGRESS ->
          list.set(
              READY,
              UNKNOWN,
              ReleaseReason.PROGRESSING.text(),
              message + "; waiting for: " + health);
      case FAILED ->
          list.set(
              READY,
              FALSE,
              ReleaseReason.HEALTH_CHECK_FAILED.text(),
              "health check failed: " + health);
      case TIMED_OUT ->
          list.set(
              READY,
              FALSE,
              ReleaseReason.HEALTH_CHECK_FAILED.text(),
              "timeout waiting for: " + health);
    }
    healthOrKept(list, seen);
  }

  private static void healthOrKept(ConditionList list, ReleaseObservation seen) {
    if (seen.health() == null || seen.healthState() == null) {
      list.keep(HEALTHY);
      return;
    }
    switch (seen.healthState()) {
      case CURRENT ->
          list.set(
              HEALTHY,
              TRUE,
              ReleaseReason.HEALTHY.text(),
              seen.health().evaluated() + " objects of the release are healthy");
      case IN_PROGRESS ->
          list.set(HEALTHY, UNKNOWN, ReleaseReason.PROGRESSING.text(), seen.health().message());
      case UNSETTLED ->
          list.set(HEALTHY, FALSE, ReleaseReason.PROGRESSING.text(), seen.health().message());
      case FAILED, TIMED_OUT ->
          list.set(
              HEALTHY, FALSE, ReleaseReason.HEALTH_CHECK_FAILED.text(), seen.health().message());
    }
  }

  /**
   * The snapshots with {@code released} first: a deployed one supersedes the deployed before it;
   * kept are the snapshots up to the last successful one before the newest, at most {@code max}.
   */
  static List<ReleaseSnapshot> history(
      List<ReleaseSnapshot> previous, ReleaseSnapshot released, int max) {
    List<ReleaseSnapshot> before = previous == null ? List.of() : previous;
    if (released == null) {
      return before;
    }
    List<ReleaseSnapshot> next = new ArrayList<>();
    next.add(released);
    boolean deployed = DEPLOYED.equals(released.status());
    for (ReleaseSnapshot snapshot : before) {
      if (snapshot.version() != null && snapshot.version().equals(released.version())) {
        next.set(0, released.keeping(snapshot));
        continue;
      }
      if (max > 0 && next.size() >= max) {
        break;
      }
      ReleaseSnapshot kept =
          deployed && DEPLOYED.equals(snapshot.status())
              ? snapshot.withStatus(SUPERSEDED)
              : snapshot;
      next.add(kept);
      if (DEPLOYED.equals(kept.status()) || SUPERSEDED.equals(kept.status())) {
        break;
      }
    }
    return List.copyOf(next);
  }

  /** Flux's failure counters: all failures, and the failed installs and upgrades. */
  public record FailureCounts(long failures, long installFailures, long upgradeFailures) {}

  /**
   * The counters that still hold for a reconcile of {@code attempted} at {@code generation}: Flux's
   * counters count the failures of the current desired state, so a new generation, chart or values
   * starts them again.
   */
  /**
   * {@code counts} with a failed test of the latest release not yet counted in {@code status}
   * added, as the status write after it would have: a failure, and one of {@code action} unless the
   * failure is ignored.
   */
  public static FailureCounts withTestFailure(
      FailureCounts counts, HelmReleaseStatus status, TestSeen tests, ReleaseAction action) {
    List<ReleaseSnapshot> history = status == null ? null : status.history();
    if (!ReleaseTestCondition.countsFailure(history, tests)) {
      return counts;
    }
    boolean forAction = ReleaseTestCondition.countsForAction(history, tests);
    boolean install = action != ReleaseAction.upgrade;
    return new FailureCounts(
        counts.failures() + 1,
        counts.installFailures() + (forAction && install ? 1 : 0),
        counts.upgradeFailures() + (forAction && !install ? 1 : 0));
  }

  public static FailureCounts carried(
      HelmReleaseStatus previous, long generation, Attempted attempted) {
    HelmReleaseStatus prev = previous == null ? empty() : previous;
    // Failures before anything was ever attempted (its remote cluster or its chart not usable yet)
    // are those of the generation last observed: they count up, so their retries back off.
    Long attemptedAt =
        prev.lastAttemptedGeneration() == null
            ? prev.observedGeneration()
            : prev.lastAttemptedGeneration();
    boolean sameInputs =
        Objects.equals(attemptedAt, generation)
            && Objects.equals(prev.lastAttemptedRevision(), attempted.revision())
            && Objects.equals(prev.lastAttemptedConfigDigest(), attempted.configDigest());
    return sameInputs
        ? new FailureCounts(
            orZero(prev.failures()), orZero(prev.installFailures()), orZero(prev.upgradeFailures()))
        : new FailureCounts(0, 0, 0);
  }

  /**
   * The counters after {@code seen}: a failed reconcile or remediation counts a failure, a failed
   * install or upgrade (its apply, or the wait for its objects) counts for its action too.
   */
  private static FailureCounts counters(
      HelmReleaseStatus prev, ReleaseObservation seen, Attempted attempted) {
    FailureCounts carried = carried(prev, seen.generation(), attempted);
    // A reconcile that failed before attempting anything (its remote cluster or its chart not
    // usable) leaves what was last attempted, and so the install and upgrade counters, as they
    // were; its failures count up while the generation stays the one last observed, whatever
    // generation was last attempted, so its retries back off.
    long failures =
        seen.attempted() == null && Objects.equals(prev.observedGeneration(), seen.generation())
            ? orZero(prev.failures())
            : carried.failures();
    long installs = carried.installFailures();
    long upgrades = carried.upgradeFailures();
    boolean actionFailed = false;
    if (seen.phase() instanceof Failed f) {
      failures++;
      // as Flux, only a failure that wrote a release record counts for its action: one before it
      // (a render that failed) leaves the remediation's retries alone
      actionFailed = f.releaseFailed() && seen.released() != null;
    } else if (seen.phase() instanceof WaitFailed) {
      failures++;
      actionFailed = true;
    } else if (seen.phase() instanceof Remediated r && !r.succeeded()) {
      failures++;
    }
    if (ReleaseTestCondition.countsFailure(prev.history(), seen.tests())) {
      failures++; // as Flux, a failed test counts for the action only when not ignored
      actionFailed |= ReleaseTestCondition.countsForAction(prev.history(), seen.tests());
    }
    if (actionFailed && attempted.action() == HelmReleaseStatus.ReleaseAction.install) {
      installs++;
    } else if (actionFailed) {
      upgrades++;
    }
    return new FailureCounts(failures, installs, upgrades);
  }

  private static Integer lastReleaseRevision(HelmReleaseStatus prev, ReleaseSnapshot released) {
    return released != null && DEPLOYED.equals(released.status())
        ? released.version()
        : prev.lastReleaseRevision();
  }

  private static Attempted lastAttempted(HelmReleaseStatus prev) {
    return new Attempted(
        prev.lastAttemptedRevision(),
        prev.lastAttemptedRevisionDigest(),
        prev.lastAttemptedConfigDigest(),
        prev.lastAttemptedValuesChecksum(),
        prev.lastAttemptedReleaseAction(),
        null);
  }

  private static long orZero(Long value) {
    return value == null ? 0 : value;
  }

  private static Long nullIfZero(long value) {
    return value == 0 ? null : value;
  }

  private static HelmReleaseStatus empty() {
    return new HelmReleaseStatus(
        null, null, null, null, null, null, null, null, null, null, null, null, null, null, null,
        null, null, null, null, null, null, null);
  }
}
