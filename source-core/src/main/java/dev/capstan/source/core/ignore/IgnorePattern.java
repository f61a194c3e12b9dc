package dev.capstan.source.core.ignore;

import dev.capstan.source.core.Deadline;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * One line of gitignore syntax, matched against paths relative to the directory of its file;
 * immutable.
 *
 * <ul>
 *   <li>{@code !} first negates (re-includes); {@code \!} and {@code \#} start with the character;
 *       trailing spaces are dropped unless escaped ({@code \ }).
 *   <li>A trailing {@code /} matches directories only; so does an escaped one ({@code a\/}), and
 *       two stars before it are ordinary stars ({@code /**\/} matches what {@code /*\/} does).
 *   <li>A pattern with a {@code /} at the start or in the middle matches the whole path from the
 *       directory of its file; any other matches the last segment of a path at any depth.
 *   <li>A segment of two stars matches any number of segments: before {@code /a} it matches {@code
 *       a} at any depth, between {@code a/} and {@code /b} it matches {@code a/b} and {@code
 *       a/x/y/b}; at the end it matches one or more, so {@code a/**} matches everything inside
 *       {@code a} but not {@code a}. Stars next to other characters are ordinary stars.
 * </ul>
 *
 * <p>The pattern is kept as its chunks between {@code **} segments. The first chunk must match the
 * start of the path and the last its end; each chunk in between is taken at the first place it
 * matches after the one before (a later place could only leave less room for the chunks after it).
 * So a match costs at most (path segments) x (pattern segments) segment matches, each bounded by
 * {@link SegmentGlob}, and the deadline is checked between them.
 *
 * @param chunks the segments between {@code **}: one chunk for a pattern without {@code **}
 */
record IgnorePattern(boolean negated, boolean dirOnly, List<List<SegmentGlob>> chunks) {

  private static final String ANY_SEGMENTS = "**";

  /** The rule of one line; empty for comments, blank lines and patterns that can never match. */
  static Optional<IgnorePattern> parse(String line) {
    if (line.isEmpty() || line.startsWith("#") || line.equals("/")) {
      return Optional.empty();
    }
    boolean negated = line.charAt(0) == '!';
    String pattern = negated ? line.substring(1) : line;
    boolean dirOnly = lastNonWhitespace(pattern) == '/';
    if (dirOnly) {
      pattern = stripTrailing(pattern.stripTrailing(), '/');
    }
    pattern = trimSpaces(pattern);
    boolean escapedSlash = endsWithEscape(pattern);
    if (escapedSlash) {
      if (!dirOnly) {
        return Optional.empty(); // a lone backslash at the end escapes nothing: never matches
      }
      pattern = pattern.substring(0, pattern.length() - 1); // it escaped the trailing slash
    }
    if (pattern.isEmpty() || pattern.endsWith("/")) {
      return Optional.empty(); // left by a line such as "a/ /": such lines never matched here
    }
    boolean anchored = pattern.indexOf('/', 1) > 0 || pattern.startsWith("/");
    // Repeated slashes count as one (as they did here before in patterns with wildcards).
    List<String> segments =
        Arrays.stream(pattern.split("/")).filter(segment -> !segment.isEmpty()).toList();
    if (segments.isEmpty()) {
      return Optional.empty();
    }
    if (escapedSlash && segments.get(segments.size() - 1).equals(ANY_SEGMENTS)) {
      // Written "**\/": stars next to a backslash are ordinary stars, matching one segment.
      segments = new ArrayList<>(segments);
      segments.set(segments.size() - 1, "*");
    }
    if (!anchored) {
      segments = List.of(ANY_SEGMENTS, segments.get(0));
    }
    return chunksOf(segments).map(chunks -> new IgnorePattern(negated, dirOnly, chunks));
  }

  /** Whether the path made of {@code segments[from..]} matches. */
  boolean matches(String[] segments, int from, boolean isDirectory, Deadline deadline) {
    if (dirOnly && !isDirectory) {
      return false;
    }
    List<SegmentGlob> head = chunks.get(0);
    int end = segments.length;
    if (chunks.size() == 1) {
      return end - from == head.size() && matchesAt(head, segments, from, deadline);
    }
    List<SegmentGlob> tail = chunks.get(chunks.size() - 1);
    if (end - from < head.size() + tail.size()
        || !matchesAt(head, segments, from, deadline)
        || !matchesAt(tail, segments, end - tail.size(), deadline)) {
      return false;
    }
    int next = from + head.size();
    int limit = end - tail.size();
    for (List<SegmentGlob> chunk : chunks.subList(1, chunks.size() - 1)) {
      int at = firstMatch(chunk, segments, next, limit, deadline);
      if (at < 0) {
        return false;
      }
      next = at + chunk.size();
    }
    // A trailing ** takes one segment at least: a/** matches what is inside a, not a itself.
    return !tail.isEmpty() || next < limit;
  }

  private static int firstMatch(
      List<SegmentGlob> chunk, String[] segments, int from, int limit, Deadline deadline) {
    for (int at = from; at + chunk.size() <= limit; at++) {
      if (matchesAt(chunk, segments, at, deadline)) {
        return at;
      }
    }
    return -1;
  }

  private static boolean matchesAt(
      List<SegmentGlob> chunk, String[] segments, int at, Deadline deadline) {
    for (int i = 0; i < chunk.size(); i++) {
      deadline.check();
      if (!chunk.get(i).matches(segments[at + i])) {
        return false;
      }
    }
    return true;
  }

  /** The chunks between {@code **} segments; empty when a segment can never match. */
  private static Optional<List<List<SegmentGlob>>> chunksOf(List<String> segments) {
    List<List<SegmentGlob>> chunks = new ArrayList<>();
    List<SegmentGlob> chunk = new ArrayList<>();
    String previous = null;
    for (String segment : segments) {
      if (segment.equals(ANY_SEGMENTS)) {
        if (!ANY_SEGMENTS.equals(previous)) { // **/** is **
          chunks.add(List.copyOf(chunk));
          chunk.clear();
        }
      } else {
        Optional<SegmentGlob> glob = SegmentGlob.compile(segment);
        if (glob.isEmpty()) {
          return Optional.empty(); // no path matches a broken segment
        }
        chunk.add(glob.get());
      }
      previous = segment;
    }
    chunks.add(List.copyOf(chunk));
    return Optional.of(List.copyOf(chunks));
  }

  private static int lastNonWhitespace(String pattern) {
    for (int i = pattern.length() - 1; i >= 0; i--) {
      if (!Character.isWhitespace(pattern.charAt(i))) {
        return pattern.charAt(i);
      }
    }
    return -1;
  }

  private static String stripTrailing(String text, char c) {
    int end = text.length();
    while (end > 0 && text.charAt(end - 1) == c) {
      end--;
    }
    return text.substring(0, end);
  }

  /** Drops trailing spaces, but an escaped one and the spaces before it stay. */
  private static String trimSpaces(String pattern) {
    int end = pattern.length();
    while (end > 0 && pattern.charAt(end - 1) == ' ') {
      end--;
    }
    if (end < pattern.length() && endsWithEscape(pattern.substring(0, end))) {
      return pattern.substring(0, end + 1); // the backslash and the space it escapes
    }
    return pattern.substring(0, end);
  }

  /** Whether the text ends with a backslash that escapes what would follow (an odd run). */
  private static boolean endsWithEscape(String text) {
    int run = 0;
    for (int i = text.length() - 1; i >= 0 && text.charAt(i) == '\\'; i--) {
      run++;
    }
    return run % 2 == 1;
  }
}
