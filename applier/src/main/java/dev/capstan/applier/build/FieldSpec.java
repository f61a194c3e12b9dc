package dev.capstan.applier.build;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * A place in some kinds of objects where a transformer writes: a slash-separated path of map keys,
 * where {@code key[]} steps into every item of a list. With {@code create}, missing maps along the
 * path are created; without it, objects that lack the path are left alone.
 */
record FieldSpec(Set<String> kinds, String path, boolean create) {

  /** A spec for every kind. */
  static FieldSpec everywhere(String path) {
    return new FieldSpec(Set.of(), path, true);
  }

  static FieldSpec of(Set<String> kinds, String path, boolean create) {
    return new FieldSpec(kinds, path, create);
  }

  boolean appliesTo(Resource resource) {
    return kinds.isEmpty() || kinds.contains(resource.kind());
  }

  /** Calls {@code action} with every map found (or created) at this path of {@code object}. */
  void visit(Map<String, Object> object, Consumer<Map<String, Object>> action) {
    visit(object, path.split("/"), 0, action);
  }

  private void visit(
      Map<String, Object> current, String[] steps, int index, Consumer<Map<String, Object>> action) {
    if (index == steps.length) {
      action.accept(current);
      return;
    }
    String step = steps[index];
    if (step.endsWith("[]")) {
      List<Object> items = ObjectTree.list(current.get(step.substring(0, step.length() - 2)));
      if (items != null) {
        for (Object item : items) {
          Map<String, Object> map = ObjectTree.map(item);
          if (map != null) {
            visit(map, steps, index + 1, action);
          }
        }
      }
      return;
    }
    Object next = current.get(step);
    if (next == null && create) {
      next = new java.util.LinkedHashMap<String, Object>();
      current.put(step, next);
    }
    Map<String, Object> map = ObjectTree.map(next);
    if (map != null) {
      visit(map, steps, index + 1, action);
    }
  }
}
