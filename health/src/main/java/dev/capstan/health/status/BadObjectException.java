package dev.capstan.health.status;

/** A field of an object has a shape no rule can read; the object's status becomes Unknown. */
public final class BadObjectException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public BadObjectException(String message) {
    // Expected on bad input: no stack trace is needed to explain it.
    super(message, null, false, false);
  }
}
