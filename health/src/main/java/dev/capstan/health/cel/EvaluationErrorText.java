package dev.capstan.health.cel;

import dev.cel.common.CelErrorCode;
import dev.cel.runtime.CelEvaluationException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What an evaluation error says to the user: what went wrong and where in the expression, never a
 * value read from the object. cel-java's messages often quote the value that failed ({@code For
 * input string: "..."}, the arguments of a failed function, a computed map key, a regular
 * expression that does not parse), and the object may hold secrets; so only text that comes from
 * the expression itself or from fixed wording is kept, and everything else is said in general terms
 * by the kind of error.
 */
final class EvaluationErrorText {
  private static final Pattern PREFIX =
      Pattern.compile("^evaluation error(?: at (<input>:\\d+))?: ");
  private static final Pattern MISSING_KEY =
      Pattern.compile("key '(.*)' is not present in map\\.?");
  private static final Pattern MISSING_FIELD = Pattern.compile("Error resolving field '(.*)'\\..*");
  private static final Pattern OUT_OF_BOUNDS = Pattern.compile("Index out of bounds: (-?\\d+)");
  private static final Pattern FAILED_FUNCTION = Pattern.compile("^Function '([^']+)' failed.*");
  private static final Pattern FAILED_EXTENSION = Pattern.compile("^(\\w+) failure: .*");
  private static final Pattern WORDS = Pattern.compile("[A-Za-z /]*");

  private EvaluationErrorText() {}

  /** The message for {@code e}, raised evaluating {@code source}, with the position if known. */
  static String of(CelEvaluationException e, String source) {
    String message = e.getMessage() == null ? "" : e.getMessage();
    String position = "";
    Matcher prefix = PREFIX.matcher(message);
    if (prefix.find()) {
      position = prefix.group(1) == null ? "" : " (at " + prefix.group(1) + ")";
      message = message.substring(prefix.end());
    }
    return describe(e, message, source) + position;
  }

  private static String describe(CelEvaluationException e, String message, String source) {
    CelLimitExceededException limit = limitExceeded(e);
    if (limit != null) {
      return limit.getMessage();
    }
    CelErrorCode code = e.getErrorCode() == null ? CelErrorCode.INTERNAL_ERROR : e.getErrorCode();
    return switch (code) {
      case ATTRIBUTE_NOT_FOUND -> missingAttribute(message, source);
      case INDEX_OUT_OF_BOUNDS -> {
        Matcher index = OUT_OF_BOUNDS.matcher(message);
        yield index.matches() && source.contains(index.group(1))
            ? "index out of bounds: " + index.group(1)
            : "index out of bounds";
      }
      case DIVIDE_BY_ZERO -> "division by zero";
      case NUMERIC_OVERFLOW -> WORDS.matcher(message).matches() ? message : "numeric overflow";
      case OVERLOAD_NOT_FOUND, AMBIGUOUS_OVERLOAD, TYPE_NOT_FOUND, ITERATION_BUDGET_EXCEEDED ->
          message; // function, overload and type names, or a fixed text
      case BAD_FORMAT -> "the value cannot be converted: it is not in the expected format";
      case INVALID_ARGUMENT -> "invalid argument";
      case DUPLICATE_ATTRIBUTE -> "duplicate map key";
      default -> failedFunction(message);
    };
  }

  /** A missing key or field, named only when the expression names it. */
  private static String missingAttribute(String message, String source) {
    Matcher field = MISSING_FIELD.matcher(message);
    if (field.matches()) {
      return source.contains(field.group(1)) ? "no such field: " + field.group(1) : "no such field";
    }
    Matcher key = MISSING_KEY.matcher(message);
    String name = key.matches() ? key.group(1) : message;
    return source.contains(name) ? "no such key: " + name : "no such key";
  }

  private static String failedFunction(String message) {
    Matcher function = FAILED_FUNCTION.matcher(message);
    if (function.matches()) {
      return "function " + function.group(1) + " failed";
    }
    Matcher extension = FAILED_EXTENSION.matcher(message);
    if (extension.matches()) {
      return "function " + extension.group(1) + " failed";
    }
    return "evaluation failed";
  }

  private static CelLimitExceededException limitExceeded(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof CelLimitExceededException limit) {
        return limit;
      }
    }
    return null;
  }
}
