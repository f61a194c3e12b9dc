package dev.capstan.applier.build;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads the fields of one mapping of a kustomization file with type checks, and reports any field
 * nobody asked for, so that unsupported settings are refused instead of silently ignored.
 */
final class Fields {
  private final Map<String, Object> map;
  private final Origin origin;
  private final String where;
  private final Set<String> read = new HashSet<>();

  Fields(Map<String, Object> map, Origin origin, String where) {
    this.map = map;
    this.origin = origin;
    this.where = where;
  }

  String string(String key) {
    Object value = take(key);
    if (value == null) {
      return null;
    }
    if (value instanceof Map<?, ?> || value instanceof List<?>) {
      throw invalid(key, "must be a string");
    }
    return String.valueOf(value);
  }

  String string(String key, String fallback) {
    String value = string(key);
    return value == null ? fallback : value;
  }

  Boolean bool(String key) {
    Object value = take(key);
    if (value == null || value instanceof Boolean) {
      return (Boolean) value;
    }
    throw invalid(key, "must be true or false");
  }

  List<String> strings(String key) {
    Object value = take(key);
    if (value == null) {
      return List.of();
    }
    List<Object> list = ObjectTree.list(value);
    if (list == null) {
      throw invalid(key, "must be a list of strings");
    }
    List<String> strings = new ArrayList<>();
    for (Object item : list) {
      if (item instanceof Map<?, ?> || item instanceof List<?> || item == null) {
        throw invalid(key, "must be a list of strings");
      }
      strings.add(String.valueOf(item));
    }
    return List.copyOf(strings);
  }

  /** A string-to-string map; kustomize refuses non-string values, and so do we. */
  Map<String, String> stringMap(String key) {
    Object value = take(key);
    if (value == null) {
      return Map.of();
    }
    Map<String, Object> raw = ObjectTree.map(value);
    if (raw == null) {
      throw invalid(key, "must be a mapping of strings");
    }
    Map<String, String> result = new LinkedHashMap<>();
    raw.forEach(
        (k, v) -> {
          if (!(v instanceof String s)) {
            throw invalid(key + "." + k, "must be a string (quote it)");
          }
          result.put(k, s);
        });
    return result;
  }

  Map<String, Object> mapping(String key) {
    Object value = take(key);
    if (value == null) {
      return null;
    }
    Map<String, Object> result = ObjectTree.map(value);
    if (result == null) {
      throw invalid(key, "must be a mapping");
    }
    return result;
  }

  /** A list whose items are mappings, each read with its own {@link Fields}. */
  List<Fields> mappings(String key) {
    Object value = take(key);
    if (value == null) {
      return List.of();
    }
    List<Object> list = ObjectTree.list(value);
    if (list == null) {
      throw invalid(key, "must be a list");
    }
    List<Fields> result = new ArrayList<>();
    for (int i = 0; i < list.size(); i++) {
      Map<String, Object> item = ObjectTree.map(list.get(i));
      if (item == null) {
        throw invalid(key + "[" + i + "]", "must be a mapping");
      }
      result.add(new Fields(item, origin, path(key) + "[" + i + "]"));
    }
    return result;
  }

  /** The raw value, for fields that may take several shapes. */
  Object raw(String key) {
    return take(key);
  }

  boolean has(String key) {
    return map.containsKey(key);
  }

  /** Refuses any field that was not read. */
  void rejectUnknown() {
    for (String key : map.keySet()) {
      if (!read.contains(key)) {
        throw new BuildFailure(
            BuildErrorKind.UNSUPPORTED_FIELD, origin,
            "unknown or unsupported field '" + path(key) + "'");
      }
    }
  }

  BuildFailure invalid(String key, String problem) {
    return new BuildFailure(
        BuildErrorKind.INVALID_KUSTOMIZATION, origin, "'" + path(key) + "' " + problem);
  }

  String where() {
    return where;
  }

  Origin origin() {
    return origin;
  }

  private Object take(String key) {
    read.add(key);
    return map.get(key);
  }

  private String path(String key) {
    return where.isEmpty() ? key : where + "." + key;
  }
}
