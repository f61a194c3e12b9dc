package dev.capstan.health.cel;

import dev.cel.common.CelErrorCode;
import dev.cel.common.exceptions.CelRuntimeException;

/**
 * A failure thrown on purpose from inside cel-java's interpreter and said by its message alone.
 *
 * <p>A {@link CelRuntimeException}, because the interpreter passes those on as they are: any other
 * exception from a function is reported with every argument of the call printed into its message,
 * and the arguments may be long lists, each element a long string, read from the object. No cause
 * and no stack trace: the message is all that is reported.
 */
abstract class MessageOnlyException extends CelRuntimeException {
  private static final long serialVersionUID = 1L;
  private final String message;

  MessageOnlyException(CelErrorCode code, String message) {
    super((Throwable) null, code);
    this.message = message;
  }

  @Override
  public final String getMessage() {
    return message;
  }

  @Override
  public final synchronized Throwable fillInStackTrace() {
    return this;
  }
}
