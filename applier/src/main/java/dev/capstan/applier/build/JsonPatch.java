package dev.capstan.applier.build;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** JSON Patch (RFC 6902): add, remove, replace, move, copy and test on a map/list tree. */
final class JsonPatch {
  private final List<Map<String, Object>> operations;
  private final Origin origin;

  private JsonPatch(List<Map<String, Object>> operations, Origin origin) {
    this.operations = operations;
    this.origin = origin;
  }

  static JsonPatch parse(List<Object> operations, Origin origin) {
    List<Map<String, Object>> parsed = new ArrayList<>();
    for (Object operation : operations) {
      Map<String, Object> map = ObjectTree.map(operation);
      if (map == null || !(map.get("op") instanceof String) || !(map.get("path") instanceof String)) {
        throw new BuildFailure(
            BuildErrorKind.INVALID_PATCH, origin, "each JSON patch operation needs 'op' and 'path'");
      }
      parsed.add(map);
    }
    return new JsonPatch(List.copyOf(parsed), origin);
  }

  /** Applies every operation to a copy of {@code object}; {@code target} names it in errors. */
  Map<String, Object> apply(Map<String, Object> object, String target) {
    Object document = ObjectTree.copy(object);
    for (Map<String, Object> operation : operations) {
      document = applyOne(document, operation, target);
    }
    return ObjectTree.stringKeyed(document, origin);
  }

  private Object applyOne(Object document, Map<String, Object> operation, String target) {
    String op = (String) operation.get("op");
    List<String> path = pointer((String) operation.get("path"));
    return switch (op) {
      case "add" -> add(document, path, ObjectTree.copy(value(operation)), op, target);
      case "remove" -> {
        remove(document, path, op, target);
        yield document;
      }
      case "replace" -> {
        get(document, path, op, target);
        remove(document, path, op, target);
        yield add(document, path, ObjectTree.copy(value(operation)), op, target);
      }
      case "move" -> {
        List<String> from = pointer(fromOf(operation));
        Object moved = get(document, from, op, target);
        remove(document, from, op, target);
        yield add(document, path, moved, op, target);
      }
      case "copy" -> {
        Object copied = ObjectTree.copy(get(document, pointer(fromOf(operation)), op, target));
        yield add(document, path, copied, op, target);
      }
      case "test" -> {
        if (!Objects.equals(get(document, path, op, target), value(operation))) {
          throw fail(op, path, target, "test failed");
        }
        yield document;
      }
      default -> throw fail(op, path, target, "unknown operation");
    };
  }

  private Object value(Map<String, Object> operation) {
    if (!operation.containsKey("value")) {
      throw new BuildFailure(
          BuildErrorKind.INVALID_PATCH, origin,
          "JSON patch operation '" + operation.get("op") + "' needs a 'value'");
    }
    return operation.get("value");
  }

  private String fromOf(Map<String, Object> operation) {
    if (!(operation.get("from") instanceof String from)) {
      throw new BuildFailure(
          BuildErrorKind.INVALID_PATCH, origin,
          "JSON patch operation '" + operation.get("op") + "' needs a 'from'");
    }
    return from;
  }

  private Object add(Object document, List<String> path, Object value, String op, String target) {
    if (path.isEmpty()) {
      return value;
    }
    Object parent = get(document, path.subList(0, path.size() - 1), op, target);
    String last = path.get(path.size() - 1);
    if (parent instanceof Map<?, ?>) {
      ObjectTree.map(parent).put(last, value);
    } else if (parent instanceof List<?>) {
      List<Object> list = ObjectTree.list(parent);
      int index = last.equals("-") ? list.size() : index(last, list.size() + 1, op, path, target);
      list.add(index, value);
    } else {
      throw fail(op, path, target, "parent is not an object or array");
    }
    return document;
  }

  private void remove(Object document, List<String> path, String op, String target) {
    if (path.isEmpty()) {
      throw fail(op, path, target, "cannot remove the whole document");
    }
    Object parent = get(document, path.subList(0, path.size() - 1), op, target);
    String last = path.get(path.size() - 1);
    if (parent instanceof Map<?, ?> map && map.containsKey(last)) {
      ObjectTree.map(parent).remove(last);
    } else if (parent instanceof List<?> list) {
      ObjectTree.list(parent).remove(index(last, list.size(), op, path, target));
    } else {
      throw fail(op, path, target, "path does not exist");
    }
  }

  private Object get(Object document, List<String> path, String op, String target) {
    Object current = document;
    for (String step : path) {
      if (current instanceof Map<?, ?> map && map.containsKey(step)) {
        current = map.get(step);
      } else if (current instanceof List<?> list) {
        current = list.get(index(step, list.size(), op, path, target));
      } else {
        throw fail(op, path, target, "path does not exist");
      }
    }
    return current;
  }

  private int index(String step, int limit, String op, List<String> path, String target) {
    try {
      int index = Integer.parseInt(step);
      if (index >= 0 && index < limit) {
        return index;
      }
    } catch (NumberFormatException e) {
      // falls through to the error below
    }
    throw fail(op, path, target, "index '" + step + "' is out of range");
  }

  private static List<String> pointer(String pointer) {
    List<String> steps = new ArrayList<>();
    if (pointer.isEmpty()) {
      return steps;
    }
    for (String raw : pointer.substring(pointer.startsWith("/") ? 1 : 0).split("/", -1)) {
      steps.add(raw.replace("~1", "/").replace("~0", "~"));
    }
    return steps;
  }

  private BuildFailure fail(String op, List<String> path, String target, String problem) {
    return new BuildFailure(
        BuildErrorKind.INVALID_PATCH, origin,
        "JSON patch '" + op + " /" + String.join("/", path) + "' on " + target + ": " + problem);
  }
}
