package dev.capstan.health.cel;

import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelEvaluationExceptionBuilder;
import java.util.ArrayList;
import java.util.List;

/**
 * The string functions that search a text for a needle: {@code indexOf}, {@code lastIndexOf},
 * {@code replace}, {@code split} (the strings extension) and {@code contains} (the standard
 * library), with the results and errors of cel-java 0.14's own, but in time linear in the text and
 * the needle ({@link TextSearch}). cel-java's, and {@code String.contains} and Guava's splitter
 * they use, compare the needle at every position of the text: len(text) x len(needle) steps, while
 * the budget charges a call by its arguments' length, so an expression of a few hundred characters
 * on a tiny object could run for minutes within every limit. Positions are counted in code points
 * ({@code indexOf}, {@code lastIndexOf}, {@code replace}) or matched on UTF-16 characters ({@code
 * contains}, {@code split}) as in cel-java.
 */
final class SearchingFunctions {

  private SearchingFunctions() {}

  static Long indexOf(String text, String needle) throws CelEvaluationException {
    return indexOf(text, needle, 0L);
  }

  static Long indexOf(String text, String needle, long offset) throws CelEvaluationException {
    int from = toInt(offset, "indexOf failure: Offset must not exceed the int32 range: %d");
    if (needle.isEmpty()) {
      return (long) from;
    }
    int[] codePoints = TextSearch.codePoints(text);
    if (from < 0 || from >= codePoints.length) {
      throw failure("indexOf failure: Offset out of range: %d", from);
    }
    return (long) TextSearch.of(TextSearch.codePoints(needle)).indexIn(codePoints, from);
  }

  static Long lastIndexOf(String text, String needle) throws CelEvaluationException {
    int[] codePoints = TextSearch.codePoints(text);
    int[] needleCodePoints = TextSearch.codePoints(needle);
    if (needleCodePoints.length == 0) {
      return (long) codePoints.length;
    }
    if (codePoints.length < needleCodePoints.length) {
      return -1L;
    }
    return lastIndexOf(codePoints, needleCodePoints, codePoints.length - 1L);
  }

  static Long lastIndexOf(String text, String needle, long offset) throws CelEvaluationException {
    return lastIndexOf(TextSearch.codePoints(text), TextSearch.codePoints(needle), offset);
  }

  private static Long lastIndexOf(int[] text, int[] needle, long offset)
      throws CelEvaluationException {
    if (needle.length == 0) {
      return offset;
    }
    int from = toInt(offset, "lastIndexOf failure: Offset must not exceed the int32 range: %d");
    if (from < 0 || from >= text.length) {
      throw failure("lastIndexOf failure: Offset out of range: %d", offset);
    }
    return (long)
        TextSearch.of(needle).lastIndexIn(text, Math.min(from, text.length - needle.length));
  }

  static boolean contains(String text, String needle) {
    return TextSearch.of(TextSearch.chars(needle)).indexIn(TextSearch.chars(text), 0) >= 0;
  }

  static String replace(String text, String target, String replacement) {
    return replace(text, target, replacement, -1);
  }

  static String replace(String text, String target, String replacement, long limit)
      throws CelEvaluationException {
    return replace(
        text,
        target,
        replacement,
        toInt(limit, "replace failure: Index must not exceed the int32 range: %d"));
  }

  private static String replace(String text, String target, String replacement, int limit) {
    if (target.equals(replacement) || limit == 0) {
      return text;
    }
    if (text.isEmpty()) {
      return target.isEmpty() ? replacement : "";
    }
    int[] codePoints = TextSearch.codePoints(text);
    TextSearch search = TextSearch.of(TextSearch.codePoints(target));
    int end = search.indexIn(codePoints, 0);
    if (end < 0) {
      return text;
    }
    // An empty target matches before every code point and at the end; the search moves on by one.
    int step = Math.max(search.length(), 1);
    StringBuilder result = new StringBuilder(text.length());
    int start = 0;
    int left = limit;
    do {
      append(result, codePoints, start, end).append(replacement);
      start = end + search.length();
      left--;
    } while (left != 0 && (end = search.indexIn(codePoints, end + step)) >= 0);
    return append(result, codePoints, start, codePoints.length).toString();
  }

  static List<String> split(String text, String separator) {
    return split(text, separator, Integer.MAX_VALUE);
  }

  static List<String> split(String text, String separator, long limit)
      throws CelEvaluationException {
    return split(
        text, separator, toInt(limit, "split failure: Limit must not exceed the int32 range: %d"));
  }

  private static List<String> split(String text, String separator, int limit) {
    if (limit == 0) {
      return List.of();
    }
    if (limit == 1) {
      return List.of(text);
    }
    int pieces = limit < 0 ? text.length() : limit;
    if (separator.isEmpty()) {
      return explode(text, pieces);
    }
    if (pieces <= 0) {
      // cel-java hands Guava's splitter a limit of 0 here, which it rejects.
      throw new IllegalArgumentException("the limit must be greater than zero");
    }
    int[] chars = TextSearch.chars(text);
    TextSearch search = TextSearch.of(TextSearch.chars(separator));
    List<String> parts = new ArrayList<>();
    int start = 0;
    int at;
    while (parts.size() < pieces - 1 && (at = search.indexIn(chars, start)) >= 0) {
      parts.add(text.substring(start, at));
      start = at + separator.length();
    }
    parts.add(text.substring(start));
    return List.copyOf(parts);
  }

  /** The code points one by one, the last piece holding the rest when there are more. */
  private static List<String> explode(String text, int pieces) {
    int[] codePoints = TextSearch.codePoints(text);
    int single = pieces > 0 ? pieces - 1 : pieces;
    List<String> parts = new ArrayList<>();
    for (int i = 0; i < Math.min(codePoints.length, single); i++) {
      parts.add(Character.toString(codePoints[i]));
    }
    if (codePoints.length > single) {
      parts.add(append(new StringBuilder(), codePoints, single, codePoints.length).toString());
    }
    return List.copyOf(parts);
  }

  /**
   * How many times {@code replace} replaces {@code target} in {@code text} (at most {@code limit}
   * when that is not negative), found in linear time; an empty target is found before every code
   * point and at the end.
   */
  static long replacements(String text, String target, long limit) {
    long count;
    if (target.isEmpty()) {
      count = text.codePointCount(0, text.length()) + 1L;
    } else {
      count = occurrences(TextSearch.codePoints(text), TextSearch.codePoints(target), limit);
    }
    return limit >= 0 ? Math.min(count, limit) : count;
  }

  /** How many pieces {@code split} makes, found in linear time. */
  static long pieces(String text, String separator, long limit) {
    if (limit == 0) {
      return 0;
    }
    if (separator.isEmpty()) {
      long codePoints = text.codePointCount(0, text.length());
      return limit > 0 ? Math.min(codePoints, limit) : codePoints;
    }
    long found =
        occurrences(
            TextSearch.chars(text), TextSearch.chars(separator), limit < 0 ? -1 : limit - 1);
    return limit > 0 ? Math.min(found + 1, limit) : found + 1;
  }

  /**
   * Occurrences of a non-empty needle, not overlapping; at most {@code limit} when not negative.
   */
  private static long occurrences(int[] text, int[] needle, long limit) {
    TextSearch search = TextSearch.of(needle);
    long count = 0;
    int at = search.indexIn(text, 0);
    while (at >= 0 && (limit < 0 || count < limit)) {
      count++;
      at = search.indexIn(text, at + needle.length);
    }
    return count;
  }

  private static StringBuilder append(StringBuilder out, int[] codePoints, int from, int to) {
    for (int i = from; i < to; i++) {
      out.appendCodePoint(codePoints[i]);
    }
    return out;
  }

  private static int toInt(long value, String message) throws CelEvaluationException {
    try {
      return Math.toIntExact(value);
    } catch (ArithmeticException e) {
      throw CelEvaluationExceptionBuilder.newBuilder(message, value).setCause(e).build();
    }
  }

  private static CelEvaluationException failure(String message, Object value) {
    return CelEvaluationExceptionBuilder.newBuilder(message, value).build();
  }
}
