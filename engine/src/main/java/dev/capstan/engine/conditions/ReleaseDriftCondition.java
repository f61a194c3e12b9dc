package dev.capstan.engine.conditions;

import static dev.capstan.engine.conditions.ConditionTypes.DRIFTED;
import static dev.capstan.engine.conditions.ConditionTypes.FALSE;
import static dev.capstan.engine.conditions.ConditionTypes.TRUE;
import static dev.capstan.engine.conditions.ConditionTypes.UNKNOWN;

import dev.capstan.engine.conditions.ReleaseObservation.DriftCorrected;
import dev.capstan.engine.conditions.ReleaseObservation.DriftLookFailed;
import dev.capstan.engine.conditions.ReleaseObservation.DriftNotLooked;
import dev.capstan.engine.conditions.ReleaseObservation.DriftReported;
import dev.capstan.engine.conditions.ReleaseObservation.DriftSeen;

/** A HelmRelease's Drifted condition, part of {@link HelmReleaseStatuses}. */
final class ReleaseDriftCondition {
  private ReleaseDriftCondition() {}

  /**
   * Drifted, from the last look for drift: kept when there was none this time, absent when drift
   * detection is disabled. It names the objects (kind, namespace, name and changed field paths),
   * never their content; it leaves Ready alone, as drift fails no release.
   */
  static void set(ConditionList list, DriftSeen drift) {
    if (drift == null || drift instanceof DriftNotLooked) {
      list.keep(DRIFTED);
    } else if (drift instanceof DriftLookFailed f) {
      list.set(DRIFTED, UNKNOWN, ReleaseReason.DRIFT_DETECTION_FAILED.text(), f.why());
    } else if (drift instanceof DriftReported r && !r.objects().isEmpty()) {
      list.set(
          DRIFTED,
          TRUE,
          ReleaseReason.DRIFT_DETECTED.text(),
          Drift.reported(r.objects()).message());
    } else if (drift instanceof DriftCorrected c && !c.failed().isEmpty()) {
      list.set(
          DRIFTED,
          TRUE,
          ReleaseReason.DRIFT_CORRECTION_FAILED.text(),
          "not corrected: " + Drift.reported(c.failed()).message());
    } else if (drift instanceof DriftCorrected c && !c.corrected().isEmpty()) {
      list.set(
          DRIFTED,
          FALSE,
          ReleaseReason.DRIFT_CORRECTED.text(),
          "corrected: " + Drift.reported(c.corrected()).message());
    } else if (drift instanceof DriftReported || drift instanceof DriftCorrected) {
      list.set(DRIFTED, FALSE, ReleaseReason.NO_DRIFT_DETECTED.text(), "No drift detected");
    }
  }
}
