package dev.capstan.health.cel;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.regex.Pattern;

/**
 * An upper bound of the size of the program RE2/J compiles a regular expression to, read from the
 * pattern without compiling it. Compiling is what must be avoided: counted repetitions multiply, so
 * the 23 characters {@code ((a{1000}){1000}){1000}} compile to a billion instructions, and RE2/J
 * (and cel-java's {@code maxRegexProgramSize}, which it checks after compiling) would exhaust the
 * heap first.
 *
 * <p>Counted per element of the pattern: a character, class, escape or {@code .} is one
 * instruction; a group adds two (capture), an alternative one (split), and an empty alternative one
 * more (RE2/J's no-op for it: {@code |(){0,5}} compiles to 24 instructions); {@code *}, {@code +}
 * and {@code ?} add two; {@code {n,m}} repeats the element up to {@code max(n, m)} times with one
 * split each, {@code {n,}} {@code n + 1} times. Every rule counts at least what RE2/J emits, so the
 * bound never falls below the real size; a pattern RE2/J rejects is simply measured and left to it.
 */
public final class RegexSize {
  private static final long OVERHEAD = 5;
  private static final Pattern COUNTS = Pattern.compile("\\d{1,7}(,\\d{0,7})?");

  private final String pattern;
  private final long cap;
  private int pos;

  private RegexSize(String pattern, long cap) {
    this.pattern = pattern;
    this.cap = cap;
  }

  /** The bound, or a value above {@code cap} as soon as the bound is known to exceed it. */
  public static long estimate(String pattern, long cap) {
    return new RegexSize(pattern, cap).measure();
  }

  /**
   * Sizes of the groups being read: the total so far, the size of the last element, and of the
   * alternative being read.
   */
  private static final class Group {
    long total;
    long last;
    long alternative;

    void add(long size) {
      total += size;
      last = size;
      alternative += size;
    }

    /** An alternative ended: an empty one is a no-op instruction of its own. */
    void endAlternative() {
      if (alternative == 0) {
        total += 1;
      }
      alternative = 0;
      last = 0;
    }
  }

  private long measure() {
    Deque<Group> groups = new ArrayDeque<>();
    Group group = new Group();
    while (pos < pattern.length()) {
      char c = pattern.charAt(pos++);
      switch (c) {
        case '\\' -> group.add(escape());
        case '[' -> group.add(characterClass());
        case '(' -> {
          if (!skipFlagsOnly()) {
            skipGroupFlags();
            groups.push(group);
            group = new Group();
          }
        }
        case ')' -> {
          group.endAlternative();
          long inner = group.total + 2;
          group = groups.isEmpty() ? new Group() : groups.pop();
          group.add(inner);
        }
        case '|' -> {
          group.endAlternative();
          group.total += 1;
        }
        case '*', '+', '?' -> {
          group.total += 2;
          group.last += 2;
          group.alternative += 2;
        }
        case '{' -> repeat(group);
        default -> group.add(1);
      }
      if (group.total > cap) {
        return group.total;
      }
    }
    group.endAlternative();
    long total = group.total;
    while (!groups.isEmpty()) {
      total += groups.pop().total + 2;
    }
    return total + OVERHEAD;
  }

  /** {@code {n}}, {@code {n,}} or {@code {n,m}} after an element; otherwise a literal brace. */
  private void repeat(Group group) {
    int close = pattern.indexOf('}', pos);
    String counts = close < 0 ? "" : pattern.substring(pos, close);
    if (!COUNTS.matcher(counts).matches()) {
      group.add(1);
      return;
    }
    pos = close + 1;
    String[] bounds = counts.split(",", -1);
    long min = Long.parseLong(bounds[0]);
    long times =
        bounds.length == 1
            ? min
            : bounds[1].isEmpty() ? min + 1 : Math.max(min, Long.parseLong(bounds[1]));
    long element = group.last;
    group.total -= element;
    group.alternative -= element;
    group.add(Math.max(1, times) * (element + 1) + 2);
  }

  private long escape() {
    if (pos >= pattern.length()) {
      return 1;
    }
    char c = pattern.charAt(pos++);
    boolean braced = pos < pattern.length() && pattern.charAt(pos) == '{';
    if ((c == 'p' || c == 'P' || c == 'x') && braced) {
      int close = pattern.indexOf('}', pos);
      pos = close < 0 ? pattern.length() : close + 1;
    } else if (c == 'Q') {
      int end = pattern.indexOf("\\E", pos);
      int stop = end < 0 ? pattern.length() : end;
      long literal = stop - pos;
      pos = end < 0 ? pattern.length() : end + 2;
      return Math.max(1, literal);
    }
    return 1;
  }

  private long characterClass() {
    if (pos < pattern.length() && pattern.charAt(pos) == '^') {
      pos++;
    }
    if (pos < pattern.length() && pattern.charAt(pos) == ']') {
      pos++;
    }
    while (pos < pattern.length()) {
      char c = pattern.charAt(pos++);
      if (c == '\\') {
        pos++;
      } else if (c == '[' && pos < pattern.length() && pattern.charAt(pos) == ':') {
        int close = pattern.indexOf(":]", pos);
        pos = close < 0 ? pattern.length() : close + 2;
      } else if (c == ']') {
        break;
      }
    }
    return 1;
  }

  /**
   * {@code (?i)}: flags for the rest of the group, not an element (a repetition after it repeats
   * the element before it).
   */
  private boolean skipFlagsOnly() {
    int i = pos;
    if (i >= pattern.length() || pattern.charAt(i) != '?') {
      return false;
    }
    i++;
    while (i < pattern.length() && isFlag(pattern.charAt(i))) {
      i++;
    }
    if (i < pattern.length() && pattern.charAt(i) == ')' && i > pos + 1) {
      pos = i + 1;
      return true;
    }
    return false;
  }

  /** {@code ?:}, {@code ?i:}, {@code ?P<name>} or {@code ?<name>} after an opening parenthesis. */
  private void skipGroupFlags() {
    if (pos >= pattern.length() || pattern.charAt(pos) != '?') {
      return;
    }
    int i = pos + 1;
    if (i < pattern.length() && (pattern.charAt(i) == 'P' || pattern.charAt(i) == '<')) {
      int close = pattern.indexOf('>', i);
      pos = close < 0 ? pattern.length() : close + 1;
      return;
    }
    while (i < pattern.length() && pattern.charAt(i) != ':' && pattern.charAt(i) != ')') {
      i++;
    }
    pos = i < pattern.length() && pattern.charAt(i) == ':' ? i + 1 : i;
  }

  private static boolean isFlag(char c) {
    return Character.isLetter(c) || c == '-';
  }
}
