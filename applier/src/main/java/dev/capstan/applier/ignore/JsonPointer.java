package dev.capstan.applier.ignore;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A JSON Pointer (RFC 6901): {@code /spec/replicas}, {@code /metadata/annotations/a~1b} for the key
 * {@code a/b}; the empty pointer is the whole document. Read from a tenant's object, so its length
 * and depth are bounded and an error names the problem, never the text.
 *
 * @param segments the reference tokens, unescaped ({@code ~1} is {@code /}, {@code ~0} is {@code
 *     ~})
 */
public record JsonPointer(List<String> segments) {

  /** The longest pointer read, in characters. */
  public static final int MAX_LENGTH = 1024;

  /** The most reference tokens in a pointer. */
  public static final int MAX_DEPTH = 64;

  public JsonPointer {
    segments = List.copyOf(segments);
  }

  /** Reads a pointer; the exception's message says what is wrong with it. */
  public static JsonPointer parse(String text) {
    if (text == null) {
      throw new IllegalArgumentException("is missing");
    }
    if (text.length() > MAX_LENGTH) {
      throw new IllegalArgumentException("is longer than " + MAX_LENGTH + " characters");
    }
    if (text.isEmpty()) {
      return new JsonPointer(List.of());
    }
    if (text.charAt(0) != '/') {
      throw new IllegalArgumentException("is not a JSON Pointer: it must start with '/'");
    }
    List<String> tokens = new ArrayList<>();
    int start = 1;
    while (true) {
      int end = text.indexOf('/', start);
      tokens.add(unescape(text.substring(start, end < 0 ? text.length() : end)));
      if (tokens.size() > MAX_DEPTH) {
        throw new IllegalArgumentException("has more than " + MAX_DEPTH + " segments");
      }
      if (end < 0) {
        return new JsonPointer(tokens);
      }
      start = end + 1;
    }
  }

  private static String unescape(String token) {
    StringBuilder out = new StringBuilder(token.length());
    for (int i = 0; i < token.length(); i++) {
      char c = token.charAt(i);
      if (c != '~') {
        out.append(c);
        continue;
      }
      char next = i + 1 < token.length() ? token.charAt(i + 1) : ' ';
      if (next != '0' && next != '1') {
        throw new IllegalArgumentException(
            "is not a JSON Pointer: '~' must be followed by 0 or 1 (RFC 6901)");
      }
      out.append(next == '0' ? '~' : '/');
      i++;
    }
    return out.toString();
  }

  /** The pointer as RFC 6901 writes it. */
  @Override
  public String toString() {
    StringBuilder out = new StringBuilder();
    for (String segment : segments) {
      out.append('/').append(segment.replace("~", "~0").replace("/", "~1"));
    }
    return out.toString();
  }

  /** The pointer one token further down. */
  public JsonPointer child(String token) {
    List<String> next = new ArrayList<>(segments);
    next.add(token);
    return new JsonPointer(next);
  }

  /** Whether this pointer is {@code other} or below it. */
  public boolean isWithin(JsonPointer other) {
    return segments.size() >= other.segments.size()
        && segments.subList(0, other.segments.size()).equals(other.segments);
  }

  /** The value the pointer names in a document of maps and lists, if it is there. */
  public Optional<Object> get(Object document) {
    Object node = document;
    for (String token : segments) {
      Optional<Object> next = step(node, token);
      if (next.isEmpty()) {
        return Optional.empty();
      }
      node = next.get();
    }
    return Optional.ofNullable(node);
  }

  /**
   * Removes what the pointer names from a document of mutable maps and lists; true when something
   * was removed. The empty pointer empties the document.
   */
  public boolean remove(Map<String, Object> document) {
    if (segments.isEmpty()) {
      boolean had = !document.isEmpty();
      document.clear();
      return had;
    }
    Optional<Object> parent = parent().get(document);
    String last = segments.get(segments.size() - 1);
    if (parent.isPresent() && parent.get() instanceof Map<?, ?> map) {
      return map.remove(last) != null;
    }
    if (parent.isPresent() && parent.get() instanceof List<?> list) {
      int index = index(last, list.size());
      if (index >= 0) {
        list.remove(index);
        return true;
      }
    }
    return false;
  }

  /**
   * Sets what the pointer names in a document of mutable maps and lists, where its parent exists;
   * true when it was set.
   */
  @SuppressWarnings("unchecked")
  public boolean set(Map<String, Object> document, Object value) {
    if (segments.isEmpty()) {
      return false;
    }
    Optional<Object> parent = parent().get(document);
    String last = segments.get(segments.size() - 1);
    if (parent.isPresent() && parent.get() instanceof Map<?, ?> map) {
      ((Map<String, Object>) map).put(last, value);
      return true;
    }
    if (parent.isPresent() && parent.get() instanceof List<?> list) {
      int index = index(last, list.size());
      if (index >= 0) {
        ((List<Object>) list).set(index, value);
        return true;
      }
    }
    return false;
  }

  /** The pointer to the parent of what this one names; the empty pointer is its own parent. */
  public JsonPointer parent() {
    return segments.isEmpty() ? this : new JsonPointer(segments.subList(0, segments.size() - 1));
  }

  private static Optional<Object> step(Object node, String token) {
    if (node instanceof Map<?, ?> map) {
      return Optional.ofNullable(map.get(token));
    }
    if (node instanceof List<?> list) {
      int index = index(token, list.size());
      return index < 0 ? Optional.empty() : Optional.ofNullable(list.get(index));
    }
    return Optional.empty();
  }

  /** A list index as RFC 6901 writes one (no sign, no leading zero), or -1. */
  static int index(String token, int size) {
    if (token.isEmpty()
        || token.length() > 9
        || (token.length() > 1 && token.charAt(0) == '0')
        || !token.chars().allMatch(c -> c >= '0' && c <= '9')) {
      return -1;
    }
    int index = Integer.parseInt(token);
    return index < size ? index : -1;
  }
}
