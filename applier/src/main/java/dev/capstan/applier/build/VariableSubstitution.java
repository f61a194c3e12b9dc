package dev.capstan.applier.build;

import java.util.Map;
import java.util.regex.Pattern;

/**
 * Replaces {@code ${NAME}} in text with a variable's value, as Flux's post-build substitution
 * does: {@code ${NAME:=default}} and {@code ${NAME:-default}} use the default when the variable is
 * unset or empty, {@code ${NAME=default}} and {@code ${NAME-default}} only when it is unset; an
 * unset variable without default becomes empty; {@code $${NAME}} is written as {@code ${NAME}};
 * a bare {@code $NAME} is left alone.
 */
final class VariableSubstitution {
  static final Pattern VALID_NAME = Pattern.compile("[_a-zA-Z][_a-zA-Z0-9]*");

  /** A malformed {@code ${...}} expression; the message says which one. */
  static final class SyntaxError extends Exception {
    SyntaxError(String message) {
      super(message, null, false, false);
    }
  }

  private final Map<String, String> variables;

  VariableSubstitution(Map<String, String> variables) {
    this.variables = variables;
  }

  String apply(String text) throws SyntaxError {
    StringBuilder out = new StringBuilder(text.length());
    int i = 0;
    while (i < text.length()) {
      char c = text.charAt(i);
      if (c == '$' && text.startsWith("$${", i)) {
        out.append("${");
        i += 3;
      } else if (c == '$' && text.startsWith("${", i)) {
        int end = closingBrace(text, i + 2);
        out.append(expand(text.substring(i + 2, end)));
        i = end + 1;
      } else {
        out.append(c);
        i++;
      }
    }
    return out.toString();
  }

  private static int closingBrace(String text, int from) throws SyntaxError {
    int depth = 0;
    for (int i = from; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '\n') {
        break;
      }
      if (c == '{') {
        depth++;
      } else if (c == '}') {
        if (depth == 0) {
          return i;
        }
        depth--;
      }
    }
    throw new SyntaxError("missing closing brace in '" + snippet(text, from - 2) + "'");
  }

  private String expand(String expression) throws SyntaxError {
    int nameEnd = 0;
    while (nameEnd < expression.length()
        && (Character.isLetterOrDigit(expression.charAt(nameEnd)) || expression.charAt(nameEnd) == '_')) {
      nameEnd++;
    }
    String name = expression.substring(0, nameEnd);
    if (!VALID_NAME.matcher(name).matches()) {
      throw new SyntaxError("bad substitution '${" + expression + "}': invalid variable name");
    }
    String rest = expression.substring(nameEnd);
    String value = variables.get(name);
    if (rest.isEmpty()) {
      return value == null ? "" : value;
    }
    boolean orEmpty = rest.startsWith(":");
    String operator = orEmpty ? rest.substring(0, Math.min(2, rest.length())) : rest.substring(0, 1);
    if (!operator.endsWith("=") && !operator.endsWith("-")) {
      throw new SyntaxError("bad substitution '${" + expression + "}': unsupported operator");
    }
    String fallback = apply(rest.substring(operator.length()));
    boolean useDefault = value == null || (orEmpty && value.isEmpty());
    return useDefault ? fallback : value;
  }

  private static String snippet(String text, int from) {
    int end = Math.min(text.length(), from + 40);
    int newline = text.indexOf('\n', from);
    return text.substring(from, newline >= 0 && newline < end ? newline : end);
  }
}
