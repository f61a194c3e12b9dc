package dev.capstan.health.status;

import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The fields directly under {@code status} that a check's expressions read. A built-in check uses
 * it to recognise an object whose controller has not reported anything the check could read yet —
 * typically a custom resource that was just created — and to call it InProgress instead of letting
 * the expressions fail on the missing field.
 *
 * @param readsStatus whether any expression mentions {@code status} at all
 * @param wholeStatus whether an expression uses {@code status} itself rather than a named field of
 *     it (for example {@code status.?phase}), so that any field counts
 * @param fields the names read as {@code status.<name>...}
 */
public record CheckedStatusFields(boolean readsStatus, boolean wholeStatus, Set<String> fields) {
  private static final String STATUS = "status";

  public CheckedStatusFields {
    fields = Set.copyOf(fields);
  }

  /** What the expressions read, given the dotted field paths they mention. */
  public static CheckedStatusFields of(Collection<String> paths) {
    boolean reads = false;
    boolean whole = false;
    Set<String> fields = new TreeSet<>();
    for (String path : paths) {
      if (path.equals(STATUS)) {
        reads = true;
        whole = true;
      } else if (path.startsWith(STATUS + ".")) {
        reads = true;
        int end = path.indexOf('.', STATUS.length() + 1);
        fields.add(path.substring(STATUS.length() + 1, end < 0 ? path.length() : end));
      }
    }
    return new CheckedStatusFields(reads, whole, fields);
  }

  /**
   * Whether the object's {@code status} holds nothing the expressions read: it is absent or null,
   * or a map without any of the fields they read. A field that is present, even as null, was
   * reported; a status of any other type is left to the expressions, which report it.
   */
  public boolean unreported(Object status) {
    if (!readsStatus) {
      return false;
    }
    if (status == null) {
      return true;
    }
    if (!(status instanceof Map<?, ?> map)) {
      return false;
    }
    if (wholeStatus) {
      return map.isEmpty();
    }
    for (String field : fields) {
      if (map.containsKey(field)) {
        return false;
      }
    }
    return true;
  }
}
