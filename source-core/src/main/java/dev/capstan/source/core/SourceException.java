package dev.capstan.source.core;

/** A fetch failure whose reason is already known; its message is safe to show. */
public final class SourceException extends RuntimeException {

  private final FailureReason reason;

  public SourceException(FailureReason reason, String message) {
    super(message, null, false, false);
    this.reason = reason;
  }

  public SourceException(FailureReason reason, String message, Throwable cause) {
    super(message, cause, false, false);
    this.reason = reason;
  }

  public FailureReason reason() {
    return reason;
  }
}
