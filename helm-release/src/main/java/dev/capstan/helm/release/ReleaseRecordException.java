package dev.capstan.helm.release;

/**
 * A release record that could not be read or written. The message names the Secret ({@code Secret
 * 'namespace/name'}) and what is wrong with it, never its values; a corrupt or tampered record is
 * refused and left as it is, never overwritten.
 */
public final class ReleaseRecordException extends Exception {

  /** What went wrong. */
  public enum Reason {
    /** The record's data is not Base64, gzip or Helm's release JSON, or is past the bounds. */
    CORRUPT,
    /** The Secret's name, type or labels do not match the release its data holds. */
    TAMPERED,
    /** Another writer made or changed the record first. */
    CONFLICT,
    /** The API server refused the read or write, or could not be reached. */
    UNAVAILABLE
  }

  private final Reason reason;

  ReleaseRecordException(Reason reason, String message, Throwable cause) {
    super(message, cause);
    this.reason = reason;
  }

  ReleaseRecordException(Reason reason, String message) {
    this(reason, message, null);
  }

  public Reason reason() {
    return reason;
  }
}
