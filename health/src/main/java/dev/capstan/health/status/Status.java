package dev.capstan.health.status;

/** The health of one object, or of a set of objects; the values kstatus uses. */
public enum Status {
  /** The object has reached the state its spec asks for. */
  Current,
  /** The object is on its way to the desired state. */
  InProgress,
  /** The object will not reach the desired state without intervention. */
  Failed,
  /** The object is being deleted. */
  Terminating,
  /** The object does not exist. */
  NotFound,
  /** The status could not be computed (bad input or a failing health check). */
  Unknown
}
