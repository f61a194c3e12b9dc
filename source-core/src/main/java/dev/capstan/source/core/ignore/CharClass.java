package dev.capstan.source.core.ignore;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;

/**
 * A bracket expression of an ignore rule: {@code [abc]}, {@code [a-z]}, {@code [!a-z]} or {@code
 * [^a-z]} (negated), {@code []a]} (a {@code ]} first is a member), {@code [[:digit:]]} (POSIX
 * classes, with the meanings the ignore rules had before: letters and digits of any script for
 * alpha, digit, graph, print, word, ASCII for the others), and backslash escapes.
 */
record CharClass(boolean negated, List<IntPredicate> members) {

  private static final Map<String, IntPredicate> POSIX =
      Map.ofEntries(
          Map.entry("alnum", c -> isAsciiLetter(c) || (c >= '0' && c <= '9')),
          Map.entry("alpha", Character::isLetter),
          Map.entry("blank", c -> c == ' ' || c == '\t'),
          Map.entry("cntrl", c -> c < 0x20 || c == 0x7f),
          Map.entry("digit", Character::isDigit),
          Map.entry("graph", c -> (c > 0x20 && c < 0x7f) || isLetterOrDigit(c)),
          Map.entry("lower", c -> Character.getType(c) == Character.LOWERCASE_LETTER),
          Map.entry("print", c -> (c >= 0x20 && c < 0x7f) || isLetterOrDigit(c)),
          Map.entry("punct", CharClass::isAsciiPunctuation),
          Map.entry("space", c -> c == ' ' || (c >= '\t' && c <= '\r')),
          Map.entry("upper", c -> Character.getType(c) == Character.UPPERCASE_LETTER),
          Map.entry(
              "xdigit",
              c -> (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')),
          Map.entry("word", c -> isLetterOrDigit(c) || c == '_'));

  /** A bracket expression and the index just after its closing {@code ]}. */
  record Parsed(CharClass charClass, int end) {}

  /** One member (or range end) read from the text, and where reading goes on. */
  private record Member(int codePoint, int next) {}

  boolean contains(int c) {
    for (IntPredicate member : members) {
      if (member.test(c)) {
        return !negated;
      }
    }
    return negated;
  }

  /**
   * Parses the bracket expression whose {@code [} is just before {@code start}; null when it is not
   * closed, has a range whose end is below its start, or names an unknown POSIX class: such a rule
   * can never match.
   */
  static Parsed parse(String text, int start) {
    int i = start;
    boolean negated = i < text.length() && (text.charAt(i) == '!' || text.charAt(i) == '^');
    if (negated) {
      i++;
    }
    List<IntPredicate> members = new ArrayList<>();
    boolean first = true;
    while (i < text.length()) {
      if (text.charAt(i) == ']' && !first) {
        return new Parsed(new CharClass(negated, List.copyOf(members)), i + 1);
      }
      first = false;
      int posixEnd = posixClassEnd(text, i);
      if (posixEnd > 0) {
        IntPredicate posix = POSIX.get(text.substring(i + 2, posixEnd - 2));
        if (posix == null) {
          return null;
        }
        members.add(posix);
        i = posixEnd;
        continue;
      }
      Member low = member(text, i);
      if (low == null) {
        return null;
      }
      i = low.next();
      if (isRangeDash(text, i)) {
        Member high = member(text, i + 1);
        if (high == null || high.codePoint() < low.codePoint()) {
          return null;
        }
        int from = low.codePoint();
        int to = high.codePoint();
        members.add(c -> c >= from && c <= to);
        i = high.next();
      } else {
        int only = low.codePoint();
        members.add(c -> c == only);
      }
    }
    return null; // not closed
  }

  /** A {@code -} between two members; one before the closing {@code ]} is a member itself. */
  private static boolean isRangeDash(String text, int i) {
    return i + 1 < text.length() && text.charAt(i) == '-' && text.charAt(i + 1) != ']';
  }

  /** The end of a {@code [:name:]} starting at {@code i}, or -1. */
  private static int posixClassEnd(String text, int i) {
    if (!text.startsWith("[:", i)) {
      return -1;
    }
    int j = i + 2;
    while (j < text.length() && isAsciiLetter(text.charAt(j))) {
      j++;
    }
    return j > i + 2 && text.startsWith(":]", j) ? j + 2 : -1;
  }

  private static Member member(String text, int i) {
    int c = text.codePointAt(i);
    int next = i + Character.charCount(c);
    if (c != '\\') {
      return new Member(c, next);
    }
    if (next >= text.length()) {
      return null;
    }
    int escaped = text.codePointAt(next);
    return new Member(escaped, next + Character.charCount(escaped));
  }

  private static boolean isAsciiLetter(int c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  }

  private static boolean isLetterOrDigit(int c) {
    return Character.isLetter(c) || Character.isDigit(c);
  }

  private static boolean isAsciiPunctuation(int c) {
    return (c >= '!' && c <= '/')
        || (c >= ':' && c <= '@')
        || (c >= '[' && c <= '`')
        || (c >= '{' && c <= '~');
  }
}
