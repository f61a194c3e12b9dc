package dev.capstan.engine.helmrelease;

import dev.capstan.api.helm.HelmRelease;
import dev.capstan.api.helm.HelmReleaseSpec;
import dev.capstan.api.helm.HelmReleaseStatus;
import dev.capstan.api.helm.HelmReleaseStatus.ReleaseAction;
import dev.capstan.api.helm.InstallRemediation;
import dev.capstan.api.helm.UpgradeRemediation;
import dev.capstan.engine.conditions.ConditionTypes;
import dev.capstan.engine.conditions.HelmReleaseStatuses;
import dev.capstan.engine.conditions.HelmReleaseStatuses.FailureCounts;
import dev.capstan.engine.conditions.ReleaseObservation.Attempted;
import dev.capstan.engine.conditions.ReleaseReason;
import dev.capstan.helm.release.ReleaseHistory;

/**
 * What a reconcile of a HelmRelease does next, from what it observed, as Flux's helm-controller
 * chooses: install when there is no release, upgrade when the release is out of date, look at the
 * health of an unchanged one, and after a failed install or upgrade retry it, remediate it (roll
 * back or uninstall) or stall when no retry remains. Pure: the stages of the pipeline do it.
 *
 * <p>The failures are those of the desired state ({@link FailureCounts}, none after a change of
 * generation, chart or values). A remediation's retries are exhausted when they are not negative
 * and the failures of its action exceed them; the last failure is remediated only with {@code
 * remediateLastFailure} (for an upgrade, by default when retries is more than 0).
 */
final class ReleaseDecision {
  private ReleaseDecision() {}

  /** The status of the release's latest record. */
  enum Latest {
    /** No record: never installed, or uninstalled. */
    NONE,
    DEPLOYED,
    FAILED,
    UNINSTALLED,
    /** Superseded (a record deleted by hand) or any other status. */
    OTHER
  }

  /**
   * What the decision is made from.
   *
   * @param install the install's remediation
   * @param upgrade the upgrade's remediation
   * @param lastAction the release action last attempted; null when none was
   * @param failures the failures of the desired state
   * @param latest the status of the latest record
   * @param deployed whether a deployed record exists: a new release after a failure upgrades it
   * @param rollbackTarget whether a record is there to roll back to; not the latest deployed one
   *     when its tests failed it
   * @param inSync whether the deployed release is the one wanted now ({@link ReleaseUnchanged}:
   *     chart, values, render digests, target)
   * @param waitPending whether the wait for the objects of the release had not ended yet
   */
  record Observed(
      InstallRemediation install,
      UpgradeRemediation upgrade,
      ReleaseAction lastAction,
      FailureCounts failures,
      Latest latest,
      boolean deployed,
      boolean rollbackTarget,
      boolean inSync,
      boolean waitPending) {

    /**
     * What {@code release}'s status and records say, for a reconcile of {@code attempted}: {@code
     * inSync} when its deployed release is the one wanted now.
     */
    static Observed of(
        HelmRelease release, Attempted attempted, ReleaseHistory history, boolean inSync) {
      HelmReleaseStatus status = release.getStatus();
      Long generation = release.getMetadata().getGeneration();
      HelmReleaseSpec spec = release.getSpec();
      ReleaseAction action = status == null ? null : status.lastAttemptedReleaseAction();
      // a failed test whose status write was lost is counted here as that write would have
      FailureCounts failures =
          HelmReleaseStatuses.withTestFailure(
              HelmReleaseStatuses.carried(status, generation == null ? 0 : generation, attempted),
              status,
              ReleaseTests.ofLatest(spec, action, history),
              action);
      return new Observed(
          spec.effectiveInstall().effectiveRemediation(),
          spec.effectiveUpgrade().effectiveRemediation(),
          action,
          failures,
          latest(history, spec, action),
          history.lastDeployed().isPresent(),
          ReleaseRemediation.rollbackTarget(history).isPresent(),
          inSync,
          waitPending(status));
    }

    /**
     * Whether the last look at the deployed release's objects found them still progressing: Healthy
     * Unknown with reason Progressing. Only a look at the objects writes that (an uninstall for a
     * changed target writes Healthy Unknown for another reason); a failed or waiting reconcile in
     * between keeps it, where it replaces Ready. A status without Healthy is read from Ready.
     */
    static boolean waitPending(HelmReleaseStatus status) {
      return HelmReleaseStatuses.condition(status, ConditionTypes.HEALTHY)
          .or(() -> HelmReleaseStatuses.condition(status, ConditionTypes.READY))
          .filter(c -> ConditionTypes.UNKNOWN.equals(c.getStatus()))
          .filter(c -> ReleaseReason.PROGRESSING.text().equals(c.getReason()))
          .isPresent();
    }

    /** The latest record's status; deployed but failed by its tests, as Flux, it failed. */
    private static Latest latest(
        ReleaseHistory history, HelmReleaseSpec spec, ReleaseAction action) {
      return history
          .latest()
          .map(
              r ->
                  switch (r.release().status()) {
                    case DEPLOYED ->
                        ReleaseTests.failsRelease(spec, action, r)
                            ? Latest.FAILED
                            : Latest.DEPLOYED;
                    case FAILED -> Latest.FAILED;
                    case UNINSTALLED -> Latest.UNINSTALLED;
                    default -> Latest.OTHER;
                  })
          .orElse(Latest.NONE);
    }
  }

  /** What the reconcile does. */
  sealed interface Next {}

  /**
   * Render, record, apply, wait: an install when no release is there or the latest was uninstalled
   * (Flux's Absent, bounded by the install's retries, whatever older record stays deployed), else
   * an upgrade.
   */
  record Release(boolean upgrade) implements Next {}

  /** Nothing to release: look at the health of the objects, ending a pending wait if it failed. */
  record Look(boolean waitPending) implements Next {}

  /** Roll back to the last deployed release. */
  record Rollback() implements Next {}

  /** Uninstall the failed release. */
  record Uninstall() implements Next {}

  /** Nothing more is tried until the spec changes. */
  record Stall(ReleaseReason reason, String message) implements Next {}

  static Next next(Observed seen) {
    return switch (seen.latest()) {
      case FAILED -> afterFailure(seen);
      case NONE, UNINSTALLED ->
          exhausted(seen.install().effectiveRetries(), seen.failures().installFailures())
              ? retriesExceeded(seen, ReleaseAction.install)
              : new Release(false);
      case DEPLOYED, OTHER -> {
        if (seen.inSync()) {
          yield new Look(seen.waitPending());
        }
        yield exhausted(seen.upgrade().effectiveRetries(), seen.failures().upgradeFailures())
            ? retriesExceeded(seen, ReleaseAction.upgrade)
            : new Release(true);
      }
    };
  }

  /**
   * The latest release failed: upgraded again when nothing says how (no action attempted, or the
   * desired state changed since), else remediated by the active action's settings, or stalled.
   */
  private static Next afterFailure(Observed seen) {
    ReleaseAction action = seen.lastAction();
    if (action == null || failuresOf(seen, action) <= 0) {
      return new Release(seen.deployed());
    }
    boolean install = action == ReleaseAction.install;
    int retries = install ? seen.install().effectiveRetries() : seen.upgrade().effectiveRetries();
    boolean remediateLast =
        install ? seen.install().remediatesLastFailure() : seen.upgrade().remediatesLastFailure();
    if (exhausted(retries, failuresOf(seen, action)) && !remediateLast) {
      return retriesExceeded(seen, action);
    }
    if (install || seen.upgrade().effectiveStrategy() == UpgradeRemediation.Strategy.uninstall) {
      return new Uninstall();
    }
    return seen.rollbackTarget()
        ? new Rollback()
        : new Stall(
            ReleaseReason.MISSING_ROLLBACK_TARGET,
            "Failed to perform remediation: missing target release for rollback");
  }

  /** Retries 0 or more, and more failures than retries. */
  private static boolean exhausted(int retries, long failures) {
    return retries >= 0 && failures > retries;
  }

  private static Stall retriesExceeded(Observed seen, ReleaseAction fallback) {
    ReleaseAction action = seen.lastAction() == null ? fallback : seen.lastAction();
    return new Stall(
        ReleaseReason.RETRIES_EXCEEDED,
        "Failed to " + action + " after " + failuresOf(seen, action) + " attempt(s)");
  }

  private static long failuresOf(Observed seen, ReleaseAction action) {
    return action == ReleaseAction.install
        ? seen.failures().installFailures()
        : seen.failures().upgradeFailures();
  }
}
