package dev.capstan.engine.helmrelease;

import dev.capstan.engine.conditions.ReleaseReason;

/**
 * A stage of a HelmRelease's reconcile that cannot go on: the reason and message its status shows;
 * {@code waiting} when it waits for something it cannot change (no retry count), {@code
 * releaseFailed} when an install or upgrade failed.
 */
final class ReleaseFailure extends RuntimeException {
  private final ReleaseReason reason;
  private final boolean waiting;
  private final boolean releaseFailed;

  private ReleaseFailure(
      ReleaseReason reason, String message, boolean waiting, boolean releaseFailed) {
    super(message, null, false, false);
    this.reason = reason;
    this.waiting = waiting;
    this.releaseFailed = releaseFailed;
  }

  static ReleaseFailure waiting(ReleaseReason reason, String message) {
    return new ReleaseFailure(reason, message, true, false);
  }

  static ReleaseFailure failed(ReleaseReason reason, String message) {
    return new ReleaseFailure(reason, message, false, false);
  }

  static ReleaseFailure releaseFailed(ReleaseReason reason, String message) {
    return new ReleaseFailure(reason, message, false, true);
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
}
