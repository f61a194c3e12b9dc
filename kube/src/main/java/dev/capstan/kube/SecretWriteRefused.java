package dev.capstan.kube;

/**
 * A Secret that could not be written: the API server refused, could not be reached, or (a conflict)
 * another writer made or changed the Secret first. The message names the Secret and the server's
 * reason, never a value.
 */
public final class SecretWriteRefused extends Exception {
  private final boolean conflict;

  SecretWriteRefused(boolean conflict, String message, Throwable cause) {
    super(message, cause, false, false);
    this.conflict = conflict;
  }

  /** Whether the Secret exists already (create) or changed since it was read (replace). */
  public boolean conflict() {
    return conflict;
  }
}
