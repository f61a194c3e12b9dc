package dev.capstan.engine.conditions;

import static dev.capstan.engine.conditions.ConditionTypes.FALSE;
import static dev.capstan.engine.conditions.ConditionTypes.READY;
import static dev.capstan.engine.conditions.ConditionTypes.TEST_SUCCESS;
import static dev.capstan.engine.conditions.ConditionTypes.TRUE;
import static dev.capstan.engine.conditions.ConditionTypes.UNKNOWN;

import dev.capstan.api.helm.ReleaseSnapshot;
import dev.capstan.engine.conditions.ReleaseObservation.TestRun;
import dev.capstan.engine.conditions.ReleaseObservation.TestSeen;
import dev.capstan.engine.conditions.ReleaseObservation.TestsFailed;
import dev.capstan.engine.conditions.ReleaseObservation.TestsNotLooked;
import dev.capstan.engine.conditions.ReleaseObservation.TestsPassed;
import dev.capstan.engine.conditions.ReleaseObservation.TestsPending;
import dev.capstan.engine.conditions.ReleaseObservation.TestsRunning;
import java.util.List;
import java.util.Objects;

/** A HelmRelease's TestSuccess condition and its part in Ready, for {@link HelmReleaseStatuses}. */
final class ReleaseTestCondition {
  private static final String FAILED_PHASE = "Failed";

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

  /**
   * Whether {@code tests} count a failure now: failed, and not yet counted for their version, which
   * {@code history} says by a failed test hook kept for it. Read from the record and the status
   * alone, so a status write lost after the test ran (a conflict, a restart) is counted later.
   */
  static boolean countsFailure(List<ReleaseSnapshot> history, TestSeen tests) {
    return tests instanceof TestsFailed f && !counted(history, f.run().version());
  }

  /** Whether {@code tests} count a failure of the install or upgrade they tested. */
  static boolean countsForAction(List<ReleaseSnapshot> history, TestSeen tests) {
    return countsFailure(history, tests) && !((TestsFailed) tests).ignored();
  }

  /** {@code history} with the test hooks of a finished run kept in the entry of its version. */
  static List<ReleaseSnapshot> withTestHooks(List<ReleaseSnapshot> history, TestSeen tests) {
    TestRun run;
    if (tests instanceof TestsFailed f) {
      run = f.run();
    } else if (tests instanceof TestsPassed p) {
      run = p.run();
    } else {
      return history;
    }
    return history.stream()
        .map(s -> Objects.equals(s.version(), run.version()) ? s.withTestHooks(run.hooks()) : s)
        .toList();
  }

  private static boolean counted(List<ReleaseSnapshot> history, int version) {
    return history != null
        && history.stream()
            .filter(s -> Objects.equals(s.version(), version) && s.testHooks() != null)
            .flatMap(s -> s.testHooks().values().stream())
            .anyMatch(h -> FAILED_PHASE.equals(h.phase()));
  }

  private static void overrideReady(
      ConditionList list, String status, ReleaseReason reason, String message) {
    boolean ready = list.current(READY).filter(c -> TRUE.equals(c.getStatus())).isPresent();
    if (ready) {
      list.drop(READY).set(READY, status, reason.text(), message);
    }
  }
}
