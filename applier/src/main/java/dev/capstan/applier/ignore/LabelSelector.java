package dev.capstan.applier.ignore;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * A Kubernetes label selector in its text form ({@code app=web,tier in (a,b),!legacy,weight>2}),
 * matched against labels or annotations: every requirement must hold. An error names what is wrong,
 * never the text (it comes from a tenant's object).
 */
final class LabelSelector {

  /** The longest selector read, in characters. */
  public static final int MAX_LENGTH = 4096;

  private static final Pattern NAME =
      Pattern.compile("[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?");
  private static final Pattern PREFIX =
      Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
  private static final Pattern VALUE =
      Pattern.compile("([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?");

  private enum Operator {
    EXISTS,
    NOT_EXISTS,
    EQUALS,
    NOT_EQUALS,
    IN,
    NOT_IN,
    GREATER,
    LESS
  }

  private record Requirement(String key, Operator operator, Set<String> values) {
    boolean matches(Map<String, String> labels) {
      String value = labels.get(key);
      return switch (operator) {
        case EXISTS -> labels.containsKey(key);
        case NOT_EXISTS -> !labels.containsKey(key);
        case EQUALS, IN -> value != null && values.contains(value);
        case NOT_EQUALS, NOT_IN -> value == null || !values.contains(value);
        case GREATER, LESS -> compares(value);
      };
    }

    private boolean compares(String value) {
      if (value == null || !value.matches("-?[0-9]{1,18}")) {
        return false;
      }
      long actual = Long.parseLong(value);
      long bound = Long.parseLong(values.iterator().next());
      return operator == Operator.GREATER ? actual > bound : actual < bound;
    }
  }

  private final List<Requirement> requirements;

  private LabelSelector(List<Requirement> requirements) {
    this.requirements = List.copyOf(requirements);
  }

  /** Reads a selector; the empty selector matches everything. */
  public static LabelSelector parse(String text) {
    if (text.length() > MAX_LENGTH) {
      throw new IllegalArgumentException("is longer than " + MAX_LENGTH + " characters");
    }
    return new LabelSelector(new Reader(text).requirements());
  }

  public boolean matches(Map<String, String> labels) {
    Map<String, String> present = labels == null ? Map.of() : labels;
    return requirements.stream().allMatch(r -> r.matches(present));
  }

  /** Reads requirements one after the other, separated by commas. */
  private static final class Reader {
    private final String text;
    private int pos;

    Reader(String text) {
      this.text = text;
    }

    List<Requirement> requirements() {
      List<Requirement> out = new ArrayList<>();
      skipSpaces();
      if (pos == text.length()) {
        return out;
      }
      while (true) {
        out.add(requirement(out.size() + 1));
        skipSpaces();
        if (pos == text.length()) {
          return out;
        }
        expect(',', out.size());
      }
    }

    private Requirement requirement(int number) {
      skipSpaces();
      if (peek() == '!') {
        pos++;
        return new Requirement(key(number), Operator.NOT_EXISTS, Set.of());
      }
      String key = key(number);
      skipSpaces();
      if (pos == text.length() || peek() == ',') {
        return new Requirement(key, Operator.EXISTS, Set.of());
      }
      if (text.startsWith("==", pos) || text.startsWith("!=", pos)) {
        Operator operator = peek() == '=' ? Operator.EQUALS : Operator.NOT_EQUALS;
        pos += 2;
        return new Requirement(key, operator, Set.of(value(number)));
      }
      if (peek() == '=' || peek() == '>' || peek() == '<') {
        char symbol = text.charAt(pos++);
        String value = value(number);
        if (symbol == '=') {
          return new Requirement(key, Operator.EQUALS, Set.of(value));
        }
        if (!value.matches("-?[0-9]{1,18}")) {
          throw problem(number, "'" + symbol + "' needs a whole number");
        }
        return new Requirement(
            key, symbol == '>' ? Operator.GREATER : Operator.LESS, Set.of(value));
      }
      String word = word();
      if (word.equals("in") || word.equals("notin")) {
        return new Requirement(key, word.equals("in") ? Operator.IN : Operator.NOT_IN, set(number));
      }
      throw problem(number, "expected an operator (=, ==, !=, in, notin, >, <)");
    }

    private Set<String> set(int number) {
      skipSpaces();
      expect('(', number);
      Set<String> values = new TreeSet<>();
      while (true) {
        values.add(value(number));
        skipSpaces();
        if (peek() == ')') {
          pos++;
          return values;
        }
        expect(',', number);
      }
    }

    private String key(int number) {
      skipSpaces();
      String key = word();
      int slash = key.indexOf('/');
      String name = slash < 0 ? key : key.substring(slash + 1);
      boolean prefixOk =
          slash < 0 || (slash <= 253 && PREFIX.matcher(key.substring(0, slash)).matches());
      if (!prefixOk || !NAME.matcher(name).matches()) {
        throw problem(number, "the key is not a valid label key");
      }
      return key;
    }

    private String value(int number) {
      skipSpaces();
      String value = word();
      if (!VALUE.matcher(value).matches()) {
        throw problem(number, "a value is not a valid label value");
      }
      return value;
    }

    /** Characters up to the next space or operator character. */
    private String word() {
      int start = pos;
      while (pos < text.length() && " \t\n,()=!<>".indexOf(text.charAt(pos)) < 0) {
        pos++;
      }
      return text.substring(start, pos);
    }

    private void expect(char c, int number) {
      skipSpaces();
      if (peek() != c) {
        throw problem(number, "expected '" + c + "'");
      }
      pos++;
    }

    private char peek() {
      return pos < text.length() ? text.charAt(pos) : '\0';
    }

    private void skipSpaces() {
      while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
        pos++;
      }
    }

    private static IllegalArgumentException problem(int number, String what) {
      return new IllegalArgumentException(
          "is not a label selector: requirement " + number + ": " + what);
    }
  }
}
