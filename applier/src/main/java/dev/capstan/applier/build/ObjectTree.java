package dev.capstan.applier.build;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Navigation and copying of the map/list trees that YAML documents become. */
final class ObjectTree {
  private ObjectTree() {}

  /** A deep copy in which every map key is a string (YAML allows other keys; Kubernetes does not). */
  static Map<String, Object> stringKeyed(Object value, Origin origin) {
    if (!(value instanceof Map<?, ?>)) {
      throw new BuildFailure(BuildErrorKind.INVALID_OBJECT, origin, "expected a YAML mapping");
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> copy = (Map<String, Object>) copy(value);
    return copy;
  }

  /** A deep copy of a tree of maps, lists and scalars; map keys become strings. */
  static Object copy(Object value) {
    if (value instanceof Map<?, ?> map) {
      Map<String, Object> copy = new LinkedHashMap<>();
      map.forEach((k, v) -> copy.put(String.valueOf(k), copy(v)));
      return copy;
    }
    if (value instanceof List<?> list) {
      List<Object> copy = new ArrayList<>(list.size());
      list.forEach(item -> copy.add(copy(item)));
      return copy;
    }
    return value;
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> map(Object value) {
    return value instanceof Map<?, ?> ? (Map<String, Object>) value : null;
  }

  @SuppressWarnings("unchecked")
  static List<Object> list(Object value) {
    return value instanceof List<?> ? (List<Object>) value : null;
  }

  /** The value at a path of map keys, or null when any step is missing or not a map. */
  static Object get(Map<String, Object> root, String... path) {
    Object current = root;
    for (String key : path) {
      Map<String, Object> map = map(current);
      if (map == null) {
        return null;
      }
      current = map.get(key);
    }
    return current;
  }

  static String string(Map<String, Object> root, String... path) {
    Object value = get(root, path);
    return value instanceof String s ? s : null;
  }

  /** The map at a path, created (with all maps on the way) when missing. */
  static Map<String, Object> mapAt(Map<String, Object> root, String... path) {
    Map<String, Object> current = root;
    for (String key : path) {
      Map<String, Object> next = map(current.get(key));
      if (next == null) {
        next = new LinkedHashMap<>();
        current.put(key, next);
      }
      current = next;
    }
    return current;
  }
}
