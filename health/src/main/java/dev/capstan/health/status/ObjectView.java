package dev.capstan.health.status;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Typed reads of a Kubernetes object held as nested maps. A missing field (or an explicit null)
 * gives the caller's default; a field of the wrong type is bad input and throws {@link
 * BadObjectException} naming the field, so the object's status becomes Unknown.
 */
public final class ObjectView {
  private final Map<String, ?> object;
  private List<Condition> conditions;
  private List<?> rawConditions = List.of();

  public ObjectView(Map<String, ?> object) {
    this.object = object;
  }

  public Map<String, ?> object() {
    return object;
  }

  String kind() {
    return string("", "kind");
  }

  /** The value at a path, or null when it or any map on the way is missing. */
  public Object at(String... path) {
    Object current = object;
    for (int i = 0; i < path.length; i++) {
      if (current == null) {
        return null;
      }
      if (!(current instanceof Map<?, ?> map)) {
        throw wrongType(path, i, "an object", current);
      }
      current = map.get(path[i]);
    }
    return current;
  }

  public boolean has(String... path) {
    return at(path) != null;
  }

  public long integer(long fallback, String... path) {
    Long value = integerOrNull(path);
    return value == null ? fallback : value;
  }

  public Long integerOrNull(String... path) {
    Object value = at(path);
    if (value == null) {
      return null;
    }
    if (value instanceof Integer || value instanceof Long || value instanceof Short) {
      return ((Number) value).longValue();
    }
    if (value instanceof BigInteger big && big.bitLength() < 64) {
      return big.longValue();
    }
    throw wrongType(path, path.length, "an integer", value);
  }

  public String string(String fallback, String... path) {
    Object value = at(path);
    if (value == null) {
      return fallback;
    }
    if (value instanceof String s) {
      return s;
    }
    throw wrongType(path, path.length, "a string", value);
  }

  public boolean isTrue(String... path) {
    return Boolean.TRUE.equals(at(path));
  }

  public List<?> list(String... path) {
    Object value = at(path);
    if (value == null) {
      return List.of();
    }
    if (value instanceof List<?> list) {
      return list;
    }
    throw wrongType(path, path.length, "a list", value);
  }

  /** {@code status.conditions}, decoded once per view. */
  public List<Condition> conditions() {
    if (conditions == null) {
      conditions = decodeConditions();
    }
    return conditions;
  }

  /** The first condition of a type, or null. */
  public Condition condition(String type) {
    for (Condition c : conditions()) {
      if (c.type().equals(type)) {
        return c;
      }
    }
    return null;
  }

  /** {@code status.conditions} as the object holds them (decoded first, so known to be maps). */
  List<?> rawConditions() {
    conditions();
    return rawConditions;
  }

  private List<Condition> decodeConditions() {
    List<?> raw = list("status", "conditions");
    rawConditions = raw;
    if (raw.isEmpty()) {
      return List.of();
    }
    List<Condition> decoded = new ArrayList<>(raw.size());
    for (int i = 0; i < raw.size(); i++) {
      if (!(raw.get(i) instanceof Map<?, ?> entry)) {
        throw new BadObjectException(
            "status.conditions[" + i + "]: expected an object, found " + describe(raw.get(i)));
      }
      decoded.add(
          new Condition(
              conditionField(entry, i, "type"),
              conditionField(entry, i, "status"),
              conditionField(entry, i, "reason"),
              conditionField(entry, i, "message")));
    }
    return decoded;
  }

  private static String conditionField(Map<?, ?> entry, int index, String field) {
    Object value = entry.get(field);
    if (value == null) {
      return "";
    }
    if (value instanceof String s) {
      return s;
    }
    throw new BadObjectException(
        "status.conditions["
            + index
            + "]."
            + field
            + ": expected a string, found "
            + describe(value));
  }

  private static BadObjectException wrongType(
      String[] path, int length, String expected, Object found) {
    String field = length == 0 ? "object" : String.join(".", List.of(path).subList(0, length));
    return new BadObjectException(field + ": expected " + expected + ", found " + describe(found));
  }

  public static String describe(Object value) {
    if (value == null) {
      return "null";
    }
    if (value instanceof String s) {
      return "a string (\"" + (s.length() > 40 ? s.substring(0, 40) + "…" : s) + "\")";
    }
    if (value instanceof Boolean b) {
      return "a boolean (" + b + ")";
    }
    if (value instanceof Number n) {
      return "a number (" + n + ")";
    }
    if (value instanceof Map<?, ?>) {
      return "an object";
    }
    if (value instanceof List<?>) {
      return "a list";
    }
    return "a " + value.getClass().getSimpleName();
  }
}
