package dev.capstan.applier.wait;

import dev.capstan.health.status.ResourceStatus;
import dev.capstan.health.status.Status;

/**
 * Why an object's health was decided without reading the object itself: the one list of these
 * reasons, whoever looks (a reconcile's wait, the health monitor's caches, {@code capstan apply
 * --wait}).
 */
public enum WaitReason {
  /** The object does not exist (yet): not Current, so a wait goes on until its timeout. */
  NOT_FOUND(Status.NotFound, ""),
  /** The API server does not serve the object's kind. */
  KIND_NOT_SERVED(Status.Unknown, "KindNotServed"),
  /** Reading the object failed. */
  READ_FAILED(Status.Unknown, "ReadFailed"),
  /** The object's kind could not be watched. */
  WATCH_FAILED(Status.Unknown, "WatchFailed"),
  /** Whoever the health is read for may not read the object. */
  ACCESS_DENIED(Status.Unknown, "AccessDenied"),
  /** Whether whoever the health is read for may read the object could not be found out. */
  ACCESS_CHECK_FAILED(Status.Unknown, "AccessCheckFailed");

  private final Status status;
  private final String reason;

  WaitReason(Status status, String reason) {
    this.status = status;
    this.reason = reason;
  }

  /**
   * The reason as it appears in messages and conditions; empty for NotFound, as kstatus has none.
   */
  public String reason() {
    return reason;
  }

  /** The status of an object this reason applies to. */
  public ResourceStatus status(String message) {
    return new ResourceStatus(status, reason, message);
  }
}
