package dev.capstan.kube;

/**
 * A Secret that could not be read: missing, refused by the API server, or holding an entry that is
 * not Base64. The message names the Secret and what went wrong, in the same words wherever a Secret
 * is read, and never a value of it.
 */
public final class SecretUnavailable extends Exception {

  /** What went wrong. */
  public enum Kind {
    /** The API server has no such Secret (it may be created later). */
    NOT_FOUND,
    /** The API server refused the read or could not be reached. */
    REFUSED,
    /** An entry of the Secret is not Base64. */
    MALFORMED
  }

  private final Kind kind;

  SecretUnavailable(Kind kind, String message) {
    this(kind, message, null);
  }

  /** {@code cause}: the API server's refusal, for a caller that passes it on as it came. */
  SecretUnavailable(Kind kind, String message, Throwable cause) {
    super(message, cause, false, false);
    this.kind = kind;
  }

  public Kind kind() {
    return kind;
  }

  static String where(String namespace, String name) {
    return "Secret '" + (namespace.isEmpty() ? name : namespace + "/" + name) + "'";
  }
}
