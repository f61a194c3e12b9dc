package dev.capstan.health.status;

import java.util.Objects;

/**
 * The computed health of one object.
 *
 * @param status the status
 * @param reason a short CamelCase reason (kstatus reason strings where kstatus has one), or empty
 * @param message a human readable explanation
 * @param decidedBy the rule that decided the status
 */
public record ResourceStatus(Status status, String reason, String message, DecidedBy decidedBy) {
  private static final DecidedBy UNATTRIBUTED = new DecidedBy.None("");

  public ResourceStatus {
    Objects.requireNonNull(status, "status");
    reason = reason == null ? "" : reason;
    message = message == null ? "" : message;
    decidedBy = decidedBy == null ? UNATTRIBUTED : decidedBy;
  }

  /** A status no rule decided (NotFound, a read failure, ...). */
  public ResourceStatus(Status status, String reason, String message) {
    this(status, reason, message, UNATTRIBUTED);
  }

  /** The same status, attributed to a rule. */
  public ResourceStatus decidedBy(DecidedBy rule) {
    return new ResourceStatus(status, reason, message, rule);
  }

  public static ResourceStatus current(String message) {
    return new ResourceStatus(Status.Current, "", message);
  }

  /**
   * Current, with something the user should know all the same (a CronJob whose last Job did not
   * succeed): a Current status carries a reason only then, and aggregates list it as a note.
   */
  public static ResourceStatus currentWithNote(String reason, String message) {
    return new ResourceStatus(Status.Current, Objects.requireNonNull(reason, "reason"), message);
  }

  /** Whether this is a Current status with a note ({@link #currentWithNote}). */
  public boolean hasNote() {
    return status == Status.Current && !reason.isEmpty();
  }

  public static ResourceStatus inProgress(String reason, String message) {
    return new ResourceStatus(Status.InProgress, reason, message);
  }

  public static ResourceStatus failed(String reason, String message) {
    return new ResourceStatus(Status.Failed, reason, message);
  }
}
