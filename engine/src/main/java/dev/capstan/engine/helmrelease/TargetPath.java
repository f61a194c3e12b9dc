package dev.capstan.engine.helmrelease;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A value set at a {@code valuesFrom} entry's {@code targetPath}, as Flux's helm-controller sets it
 * with Helm's {@code --set} parser: the path is dot-separated keys with {@code [n]} list indices
 * and {@code \} escaping the next character; an unquoted value is typed as {@code --set} types it
 * (true/false, null, a 64-bit integer not starting with 0, else a string), a value between quotes
 * loses them and stays a string, a {@code literal} one is taken whole as a string. The subset Flux
 * documents: one value per entry (an unescaped comma, which {@code --set} would read as a second
 * assignment, is refused), a {@code {a,b}} list; indices bounded as Helm bounds them.
 */
final class TargetPath {
  /** The largest list index, as Helm's parser allows. */
  static final int MAX_INDEX = 65536;

  /** Segments a path may have; the API's pattern bounds its length to 250 characters. */
  static final int MAX_SEGMENTS = 250;

  /** A path or value that cannot be set; the message never quotes the value. */
  static final class Refused extends Exception {
    private static final long serialVersionUID = 1L;

    Refused(String message) {
      super(message, null, false, false);
    }
  }

  private sealed interface Segment permits Key, Index {}

  private record Key(String name) implements Segment {}

  private record Index(int index) implements Segment {}

  private TargetPath() {}

  /** Sets {@code text}, typed as {@code --set} types it, at {@code path} in {@code values}. */
  static void set(Map<String, Object> values, String path, String text, boolean literal)
      throws Refused {
    List<Segment> segments = segments(path);
    Object value = literal ? text : value(text);
    Object container = values;
    for (int i = 0; i < segments.size() - 1; i++) {
      container = child(container, segments.get(i), segments.get(i + 1), path);
    }
    put(container, segments.get(segments.size() - 1), value);
  }

  /** The value of a valuesFrom entry: between quotes a string, else typed. */
  static Object value(String text) throws Refused {
    boolean quoted =
        (text.startsWith("'") && text.endsWith("'"))
            || (text.startsWith("\"") && text.endsWith("\""));
    if (quoted) {
      return scalarOrList(stripQuotes(text), true);
    }
    return scalarOrList(text, false);
  }

  /** Every quote at either end removed, as Go's strings.Trim does with both quote characters. */
  private static String stripQuotes(String text) {
    int start = 0;
    int end = text.length();
    while (start < end && isQuote(text.charAt(start))) {
      start++;
    }
    while (end > start && isQuote(text.charAt(end - 1))) {
      end--;
    }
    return text.substring(start, end);
  }

  private static boolean isQuote(char c) {
    return c == '\'' || c == '"';
  }

  private static Object scalarOrList(String text, boolean string) throws Refused {
    if (text.startsWith("{") && text.endsWith("}") && text.length() >= 2) {
      List<Object> list = new ArrayList<>();
      for (String item : unescapedSplit(text.substring(1, text.length() - 1))) {
        list.add(string ? item : typed(item));
      }
      return list;
    }
    List<String> parts = unescapedSplit(text);
    if (parts.size() > 1) {
      throw new Refused("the value holds an unescaped comma: one value is set at a targetPath");
    }
    return string ? parts.get(0) : typed(parts.get(0));
  }

  /** {@code text} split at unescaped commas, each {@code \x} read as {@code x}. */
  private static List<String> unescapedSplit(String text) {
    List<String> parts = new ArrayList<>();
    StringBuilder part = new StringBuilder();
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '\\') {
        if (i + 1 < text.length()) {
          part.append(text.charAt(++i));
        }
      } else if (c == ',') {
        parts.add(part.toString());
        part.setLength(0);
      } else {
        part.append(c);
      }
    }
    parts.add(part.toString());
    return parts;
  }

  /** A value typed as Helm's {@code --set} types it. */
  static Object typed(String text) {
    if (text.equalsIgnoreCase("true")) {
      return Boolean.TRUE;
    }
    if (text.equalsIgnoreCase("false")) {
      return Boolean.FALSE;
    }
    if (text.equalsIgnoreCase("null")) {
      return null;
    }
    if (text.equals("0")) {
      return 0L;
    }
    if (!text.isEmpty() && text.charAt(0) != '0') {
      try {
        return Long.parseLong(text);
      } catch (NumberFormatException e) {
        return text;
      }
    }
    return text;
  }

  /**
   * How many list slots setting {@code path} may create (each index grows its list to it): what a
   * composition charges against its bound, since a one-byte value at a large index costs far more
   * than its byte.
   */
  static long slots(String path) {
    try {
      return segments(path).stream()
          .mapToLong(s -> s instanceof Index i ? i.index() + 1L : 0L)
          .sum();
    } catch (Refused e) {
      return 0; // refused when it is set, naming why
    }
  }

  private static List<Segment> segments(String path) throws Refused {
    List<Segment> segments = new ArrayList<>();
    StringBuilder key = new StringBuilder();
    boolean keyOpen = true;
    for (int i = 0; i < path.length(); i++) {
      char c = path.charAt(i);
      if (c == '\\' && i + 1 < path.length()) {
        key.append(path.charAt(++i));
        keyOpen = true;
      } else if (c == '.') {
        closeKey(segments, key, keyOpen, path);
        keyOpen = true;
      } else if (c == '[') {
        closeKey(segments, key, keyOpen, path);
        int close = path.indexOf(']', i);
        if (close < 0) {
          throw new Refused("targetPath '" + path + "' has an unclosed '['");
        }
        segments.add(new Index(index(path, path.substring(i + 1, close))));
        i = close;
        keyOpen = false;
      } else {
        key.append(c);
        keyOpen = true;
      }
      if (segments.size() > MAX_SEGMENTS) {
        throw new Refused("targetPath '" + path + "' has more than " + MAX_SEGMENTS + " parts");
      }
    }
    closeKey(segments, key, keyOpen, path);
    if (segments.isEmpty() || !(segments.get(0) instanceof Key)) {
      throw new Refused("targetPath '" + path + "' does not start with a key");
    }
    return segments;
  }

  /** Ends the key being read; a key after an index may be empty (a[0].b reads a, 0, b). */
  private static void closeKey(
      List<Segment> segments, StringBuilder key, boolean keyOpen, String path) throws Refused {
    if (key.length() > 0) {
      segments.add(new Key(key.toString()));
      key.setLength(0);
    } else if (keyOpen
        && (segments.isEmpty() || segments.get(segments.size() - 1) instanceof Key)) {
      throw new Refused("targetPath '" + path + "' has an empty key");
    }
  }

  private static int index(String path, String digits) throws Refused {
    if (digits.isEmpty() || digits.length() > 6 || !digits.chars().allMatch(Character::isDigit)) {
      throw new Refused("targetPath '" + path + "' has an index that is not a number");
    }
    int index = Integer.parseInt(digits);
    if (index > MAX_INDEX) {
      throw new Refused("targetPath '" + path + "' has an index above " + MAX_INDEX);
    }
    return index;
  }

  /** The container at {@code at} in {@code container}, made as {@code next} needs if absent. */
  @SuppressWarnings("unchecked")
  private static Object child(Object container, Segment at, Segment next, String path)
      throws Refused {
    Object existing = get(container, at);
    boolean wantList = next instanceof Index;
    if (wantList && existing instanceof List<?>) {
      return existing;
    }
    if (!wantList && existing instanceof Map<?, ?>) {
      return existing;
    }
    if (existing != null) {
      throw new Refused(
          "targetPath '"
              + path
              + "' goes through a value that is not a "
              + (wantList ? "list" : "mapping"));
    }
    Object made = wantList ? new ArrayList<>() : new LinkedHashMap<String, Object>();
    put(container, at, made);
    return made;
  }

  @SuppressWarnings("unchecked")
  private static Object get(Object container, Segment at) {
    if (at instanceof Key key) {
      return ((Map<String, Object>) container).get(key.name());
    }
    List<Object> list = (List<Object>) container;
    int index = ((Index) at).index();
    return index < list.size() ? list.get(index) : null;
  }

  @SuppressWarnings("unchecked")
  private static void put(Object container, Segment at, Object value) {
    if (at instanceof Key key) {
      ((Map<String, Object>) container).put(key.name(), value);
      return;
    }
    List<Object> list = (List<Object>) container;
    int index = ((Index) at).index();
    while (list.size() <= index) {
      list.add(null);
    }
    list.set(index, value);
  }
}
