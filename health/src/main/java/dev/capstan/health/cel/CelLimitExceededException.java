package dev.capstan.health.cel;

import dev.cel.common.CelErrorCode;
import java.util.Locale;

/**
 * An evaluation went over one of its {@link CelLimits}. Thrown from inside cel-java's interpreter,
 * which adds the position of the node that went over; the message names the limit and never the
 * values involved (the arguments that made the budget run out are the very work and memory the
 * budget is there to prevent printing).
 */
final class CelLimitExceededException extends MessageOnlyException {
  private static final long serialVersionUID = 1L;

  /** Which limit was exceeded, and how that is said (of the limit's amount). */
  enum Limit {
    COST("cost limit exceeded: the expression needs more than %s units of work"),
    OUTPUT("size limit exceeded: the values the expression creates would take more than %s"),
    REGEX_SIZE("regular expression too large: it would compile to more than %s instructions");

    private final String wording;

    Limit(String wording) {
      this.wording = wording;
    }
  }

  private final Limit limit;

  private CelLimitExceededException(Limit limit, String amount) {
    super(
        CelErrorCode.ITERATION_BUDGET_EXCEEDED, String.format(Locale.ROOT, limit.wording, amount));
    this.limit = limit;
  }

  static CelLimitExceededException cost(CelLimits limits) {
    return new CelLimitExceededException(Limit.COST, grouped(limits.maxCost()));
  }

  static CelLimitExceededException output(CelLimits limits) {
    return new CelLimitExceededException(Limit.OUTPUT, bytes(limits.maxOutputBytes()));
  }

  static CelLimitExceededException regexSize(CelLimits limits) {
    return new CelLimitExceededException(Limit.REGEX_SIZE, grouped(limits.maxRegexProgramSize()));
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
