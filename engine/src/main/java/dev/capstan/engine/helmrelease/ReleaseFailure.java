package dev.capstan.engine.helmrelease;

import dev.capstan.engine.conditions.ReleaseObservation;
import dev.capstan.engine.conditions.ReleaseReason;

/**
 * A stage of a HelmRelease's reconcile that cannot go on: the reason and message its status shows;
 * {@code waiting} when it waits for something it cannot change (no retry count), {@code
 * releaseFailed} when an install or upgrade failed, {@code stalled} when only a change of the spec
 * can end it (no retry).
 */
final class ReleaseFailure extends RuntimeException {
  private final ReleaseReason reason;
  private final boolean waiting;
  private final boolean releaseFailed;
  private final boolean stalled;

  private ReleaseFailure(
      ReleaseReason reason,
      String message,
      boolean waiting,
      boolean releaseFailed,
      boolean stalled) {
    super(message, null, false, false);
    this.reason = reason;
    this.waiting = waiting;
    this.releaseFailed = releaseFailed;
    this.stalled = stalled;
  }

  static ReleaseFailure waiting(ReleaseReason reason, String message) {
    return new ReleaseFailure(reason, message, true, false, false);
  }

  static ReleaseFailure failed(ReleaseReason reason, String message) {
    return new ReleaseFailure(reason, message, false, false, false);
  }

  static ReleaseFailure releaseFailed(ReleaseReason reason, String message) {
    return new ReleaseFailure(reason, message, false, true, false);
  }

  static ReleaseFailure stalled(ReleaseReason reason, String message) {
    return new ReleaseFailure(reason, message, false, false, true);
  }

  boolean isStalled() {
    return stalled;
  }

  ReleaseReason reason() {
    return reason;
  }

  boolean isWaiting() {
    return waiting;
  }

  boolean isReleaseFailure() {
    return releaseFailed;
  }

  /** The phase of the reconcile this failure stopped, with {@code message} (redacted) as said. */
  ReleaseObservation.ReleasePhase phase(String message) {
    if (isStalled()) {
      return new ReleaseObservation.Stalled(reason(), message);
    } else if (isWaiting()) {
      return new ReleaseObservation.Waiting(reason(), message);
    }
    return new ReleaseObservation.Failed(reason(), message, isReleaseFailure());
  }
}
