package dev.capstan.health.cel;

/**
 * A health check expression entry that cannot be used: missing {@code current}, an expression that
 * does not compile, a duplicate entry, or unreadable YAML. The message names the entry (index and
 * apiVersion/kind), the expression and the position of the error.
 */
public final class InvalidHealthCheckException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  public InvalidHealthCheckException(String message) {
    super(message);
  }
}
