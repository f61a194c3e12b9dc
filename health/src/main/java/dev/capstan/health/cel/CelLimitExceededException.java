package dev.capstan.health.cel;

import dev.cel.common.CelErrorCode;
import dev.cel.common.exceptions.CelRuntimeException;
import java.util.Locale;

/**
 * An evaluation went over one of its {@link CelLimits}. Thrown from inside cel-java's interpreter,
 * which adds the position of the node that went over; the message names the limit and never the
 * values involved.
 *
 * <p>A {@link CelRuntimeException}, because the interpreter passes those on as they are: any other
 * exception from a function is reported with all its arguments printed, which for the arguments
 * that made the budget run out is the very work and memory the budget is there to prevent.
 */
final class CelLimitExceededException extends CelRuntimeException {
  private static final long serialVersionUID = 1L;

  /** Which limit was exceeded. */
  enum Limit {
    COST,
    OUTPUT,
    REGEX_SIZE
  }

  private final Limit limit;
  private final String message;

  private CelLimitExceededException(Limit limit, String message) {
    super((Throwable) null, CelErrorCode.ITERATION_BUDGET_EXCEEDED);
    this.limit = limit;
    this.message = message;
  }

  @Override
  public String getMessage() {
    return message;
  }

  /** No stack trace: thrown on purpose, and the message says everything. */
  @Override
  public synchronized Throwable fillInStackTrace() {
    return this;
  }

  static CelLimitExceededException cost(CelLimits limits) {
    return new CelLimitExceededException(
        Limit.COST,
        "cost limit exceeded: the expression needs more than "
            + grouped(limits.maxCost())
            + " units of work");
  }

  static CelLimitExceededException output(CelLimits limits) {
    return new CelLimitExceededException(
        Limit.OUTPUT,
        "size limit exceeded: the values the expression creates would take more than "
            + bytes(limits.maxOutputBytes()));
  }

  static CelLimitExceededException regexSize(CelLimits limits) {
    return new CelLimitExceededException(
        Limit.REGEX_SIZE,
        "regular expression too large: it would compile to more than "
            + grouped(limits.maxRegexProgramSize())
            + " instructions");
  }

  Limit limit() {
    return limit;
  }

  private static String bytes(long n) {
    return n % (1 << 20) == 0 ? (n >> 20) + " MiB" : grouped(n) + " bytes";
  }

  private static String grouped(long n) {
    return String.format(Locale.ROOT, "%,d", n);
  }
}
