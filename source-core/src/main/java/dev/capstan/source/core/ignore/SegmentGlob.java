package dev.capstan.source.core.ignore;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The pattern of one path segment in an ignore rule: characters, {@code ?} (any one character),
 * {@code *} (any run of characters, none included) and bracket expressions {@code [...]}; a
 * backslash makes the next character literal.
 *
 * <p>Matching takes at most (name length + 1) x (pattern length + 1) steps whatever the pattern: a
 * {@code *} that turns out to have been extended too little is extended by one character and the
 * rest matched again, and only the last {@code *} is ever extended (an earlier one never needs to
 * be: whatever it could still take, the later one can take instead). Ignore rules compiled to
 * backtracking regular expressions instead take time exponential in the number of stars, which a
 * rule like {@code *a*a*a*a*a*a*a*a*b} turns into minutes for one file name of 100 characters.
 */
final class SegmentGlob {

  /** A token that is not a code point (code points are 0 and up). */
  private static final int ANY = -1;

  private static final int STAR = -2;

  /** Tokens below this one are {@code CLASS_BASE - i}: bracket expression {@code i}. */
  private static final int CLASS_BASE = -3;

  /** Collating symbols and equivalence classes, which ignore rules do not support. */
  private static final Pattern UNSUPPORTED = Pattern.compile("\\[\\[[.=]\\w+[.=]\\]\\]");

  private final int[] tokens;
  private final CharClass[] classes;

  /** Code points a name needs at least: every token but a star takes one. */
  private final int minLength;

  private SegmentGlob(int[] tokens, CharClass[] classes) {
    this.tokens = tokens;
    this.classes = classes;
    this.minLength = (int) Arrays.stream(tokens).filter(t -> t != STAR).count();
  }

  /**
   * The glob of {@code text}, one segment of a rule (no {@code /} in it); empty when it can never
   * match: an unclosed or malformed bracket expression. A backslash at the end (it escaped a slash
   * or was left over) is dropped.
   */
  static Optional<SegmentGlob> compile(String text) {
    if (UNSUPPORTED.matcher(text).find()) {
      return Optional.empty();
    }
    int[] tokens = new int[text.length()]; // a token per code point at most
    int count = 0;
    List<CharClass> classes = new ArrayList<>();
    int i = 0;
    while (i < text.length()) {
      int c = text.codePointAt(i);
      i += Character.charCount(c);
      switch (c) {
        case '\\' -> {
          if (i < text.length()) {
            int escaped = text.codePointAt(i);
            i += Character.charCount(escaped);
            tokens[count++] = escaped;
          }
        }
        case '*' -> {
          if (count == 0 || tokens[count - 1] != STAR) {
            tokens[count++] = STAR; // more stars in a row match what one does
          }
        }
        case '?' -> tokens[count++] = ANY;
        case '[' -> {
          CharClass.Parsed parsed = CharClass.parse(text, i);
          if (parsed == null) {
            return Optional.empty();
          }
          tokens[count++] = CLASS_BASE - classes.size();
          classes.add(parsed.charClass());
          i = parsed.end();
        }
        default -> tokens[count++] = c;
      }
    }
    return Optional.of(
        new SegmentGlob(Arrays.copyOf(tokens, count), classes.toArray(CharClass[]::new)));
  }

  /** Whether the whole of {@code name} (one path segment) matches. */
  boolean matches(String name) {
    if (minLength > name.length()) {
      return false; // cheap, and it keeps a very long rule from costing anything on short names
    }
    int t = 0;
    int n = 0;
    int star = -1;
    int resumeAt = 0;
    while (n < name.length()) {
      int c = name.codePointAt(n);
      if (t < tokens.length && tokens[t] == STAR) {
        star = t++;
        resumeAt = n;
      } else if (t < tokens.length && accepts(tokens[t], c)) {
        t++;
        n += Character.charCount(c);
      } else if (star >= 0) {
        // The last star takes one more character; what follows it is matched again from there.
        t = star + 1;
        resumeAt += Character.charCount(name.codePointAt(resumeAt));
        n = resumeAt;
      } else {
        return false;
      }
    }
    while (t < tokens.length && tokens[t] == STAR) {
      t++;
    }
    return t == tokens.length;
  }

  private boolean accepts(int token, int c) {
    if (token >= 0) {
      return token == c;
    }
    return token == ANY || classes[CLASS_BASE - token].contains(c);
  }
}
