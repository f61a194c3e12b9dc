package dev.capstan.engine.conditions;

import static dev.capstan.engine.conditions.ConditionTypes.FALSE;
import static dev.capstan.engine.conditions.ConditionTypes.READY;
import static dev.capstan.engine.conditions.ConditionTypes.TEST_SUCCESS;
import static dev.capstan.engine.conditions.ConditionTypes.TRUE;
import static dev.capstan.engine.conditions.ConditionTypes.UNKNOWN;

import dev.capstan.engine.conditions.ReleaseObservation.TestSeen;
import dev.capstan.engine.conditions.ReleaseObservation.TestsFailed;
import dev.capstan.engine.conditions.ReleaseObservation.TestsNotLooked;
import dev.capstan.engine.conditions.ReleaseObservation.TestsPassed;
import dev.capstan.engine.conditions.ReleaseObservation.TestsPending;
import dev.capstan.engine.conditions.ReleaseObservation.TestsRunning;

/** A HelmRelease's TestSuccess condition and its part in Ready, for {@link HelmReleaseStatuses}. */
final class ReleaseTestCondition {
  private ReleaseTestCondition() {}

  /**
   * TestSuccess from where the tests stand: kept when not looked at, absent when tests are off. As
   * Flux, a failed test not ignored fails a Ready that the release's health made True, and a test
   * still running leaves it Unknown; Ready already False or Unknown for another reason stays.
   */
  static void set(ConditionList list, TestSeen tests) {
    if (tests == null || tests instanceof TestsNotLooked) {
      list.keep(TEST_SUCCESS);
    } else if (tests instanceof TestsPending p) {
      list.set(TEST_SUCCESS, UNKNOWN, ReleaseReason.AWAITING_TESTS.text(), p.message());
    } else if (tests instanceof TestsRunning r) {
      list.set(TEST_SUCCESS, UNKNOWN, ReleaseReason.AWAITING_TESTS.text(), r.message());
      overrideReady(list, UNKNOWN, ReleaseReason.PROGRESSING, r.message());
    } else if (tests instanceof TestsPassed p) {
      list.set(TEST_SUCCESS, TRUE, ReleaseReason.TEST_SUCCEEDED.text(), p.message());
    } else if (tests instanceof TestsFailed f) {
      list.set(TEST_SUCCESS, FALSE, ReleaseReason.TEST_FAILED.text(), f.message());
      if (!f.ignored()) {
        overrideReady(list, FALSE, ReleaseReason.TEST_FAILED, f.message());
      }
    }
  }

  /** Whether {@code tests} count a failure now; {@link #countsForAction} whether for the action. */
  static boolean countsFailure(TestSeen tests) {
    return tests instanceof TestsFailed f && f.ranNow();
  }

  /** Whether {@code tests} count a failure of the install or upgrade they tested. */
  static boolean countsForAction(TestSeen tests) {
    return tests instanceof TestsFailed f && f.ranNow() && !f.ignored();
  }

  private static void overrideReady(
      ConditionList list, String status, ReleaseReason reason, String message) {
    boolean ready = list.current(READY).filter(c -> TRUE.equals(c.getStatus())).isPresent();
    if (ready) {
      list.drop(READY).set(READY, status, reason.text(), message);
    }
  }
}
