package dev.capstan.health;

import java.util.Objects;

/**
 * The computed health of one object.
 *
 * @param status the status
 * @param reason a short CamelCase reason (kstatus reason strings where kstatus has one), or empty
 * @param message a human readable explanation
 */
public record ResourceStatus(Status status, String reason, String message) {

  public ResourceStatus {
    Objects.requireNonNull(status, "status");
    reason = reason == null ? "" : reason;
    message = message == null ? "" : message;
  }

  static ResourceStatus current(String message) {
    return new ResourceStatus(Status.Current, "", message);
  }

  static ResourceStatus inProgress(String reason, String message) {
    return new ResourceStatus(Status.InProgress, reason, message);
  }

  static ResourceStatus failed(String reason, String message) {
    return new ResourceStatus(Status.Failed, reason, message);
  }

  static ResourceStatus unknown(String message) {
    return new ResourceStatus(Status.Unknown, "", message);
  }
}
