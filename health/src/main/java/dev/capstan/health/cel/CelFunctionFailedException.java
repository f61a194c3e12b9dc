package dev.capstan.health.cel;

import dev.cel.common.CelErrorCode;
import dev.cel.common.exceptions.CelRuntimeException;

/**
 * A guarded function failed (a list of mixed types to sort, a negative depth to flatten). Said in a
 * {@link CelRuntimeException}, without the original exception as its cause: for any other exception
 * cel-java prints every argument of the call into its message, and the arguments may be long lists,
 * each element a long string, read from the object.
 */
final class CelFunctionFailedException extends CelRuntimeException {
  private static final long serialVersionUID = 1L;
  private final String message;

  CelFunctionFailedException(String overloadId) {
    super((Throwable) null, CelErrorCode.INTERNAL_ERROR);
    this.message = "Function '" + overloadId + "' failed";
  }

  @Override
  public String getMessage() {
    return message;
  }

  /** No stack trace: the message is all that is reported. */
  @Override
  public synchronized Throwable fillInStackTrace() {
    return this;
  }
}
