package dev.capstan.health.cel;

/**
 * Finds a needle in a text in time linear in both (Knuth-Morris-Pratt): after a partial match the
 * search goes on from what the matched part already tells, and never compares a character of the
 * text again from the start of the needle. A naive search compares the needle at every position,
 * len(text) x len(needle) steps for a needle like {@code aaa…ab} in a text like {@code aaa…a}.
 * Texts and needles are arrays of code points or of UTF-16 characters, as the caller's semantics
 * need; immutable.
 */
final class TextSearch {
  private final int[] needle;

  /** For each prefix of the needle, the length of its longest proper prefix that is a suffix. */
  private final int[] border;

  private TextSearch(int[] needle) {
    this.needle = needle;
    this.border = borders(needle);
  }

  static TextSearch of(int[] needle) {
    return new TextSearch(needle);
  }

  static int[] codePoints(String s) {
    return s.codePoints().toArray();
  }

  static int[] chars(String s) {
    return s.chars().toArray();
  }

  int length() {
    return needle.length;
  }

  /**
   * The first index at or after {@code from} where the needle starts, or -1. An empty needle is
   * found at {@code from} when that is within the text (its length included).
   */
  int indexIn(int[] text, int from) {
    if (needle.length == 0) {
      return from >= 0 && from <= text.length ? from : -1;
    }
    int matched = 0;
    for (int i = Math.max(0, from); i < text.length; i++) {
      while (matched > 0 && text[i] != needle[matched]) {
        matched = border[matched - 1];
      }
      if (text[i] == needle[matched]) {
        matched++;
      }
      if (matched == needle.length) {
        return i - needle.length + 1;
      }
    }
    return -1;
  }

  /**
   * The last index at or before {@code maxStart} where the (non-empty) needle starts, or -1: the
   * first match of the reversed needle in the reversed text, from the far end.
   */
  int lastIndexIn(int[] text, int maxStart) {
    int end = (int) Math.min(text.length, (long) maxStart + needle.length);
    if (maxStart < 0 || end < needle.length) {
      return -1;
    }
    int[] reversedText = reversed(text, end);
    int found = of(reversed(needle, needle.length)).indexIn(reversedText, 0);
    return found < 0 ? -1 : end - found - needle.length;
  }

  private static int[] reversed(int[] values, int length) {
    int[] reversed = new int[length];
    for (int i = 0; i < length; i++) {
      reversed[i] = values[length - 1 - i];
    }
    return reversed;
  }

  private static int[] borders(int[] needle) {
    int[] border = new int[needle.length];
    int length = 0;
    for (int i = 1; i < needle.length; i++) {
      while (length > 0 && needle[i] != needle[length]) {
        length = border[length - 1];
      }
      if (needle[i] == needle[length]) {
        length++;
      }
      border[i] = length;
    }
    return border;
  }
}
