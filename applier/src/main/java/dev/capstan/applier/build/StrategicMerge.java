package dev.capstan.applier.build;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Strategic merge patch as Kubernetes defines it: maps merge recursively, {@code null} deletes a
 * field, lists with a patch merge key are merged item by item (patch items first, in the patch's
 * order, then the original items it did not mention), other lists are replaced. The directives
 * {@code $patch: replace|delete|merge}, {@code $retainKeys} and {@code $deleteFromPrimitiveList}
 * are honoured; {@code $setElementOrder} is accepted and ignored. With {@link MergeKeys} of a custom
 * resource every list is replaced, which makes this a JSON merge patch (RFC 7386) plus directives.
 */
final class StrategicMerge {
  private static final String DIRECTIVE = "$patch";
  private static final String RETAIN_KEYS = "$retainKeys";
  private static final String DELETE_FROM_LIST = "$deleteFromPrimitiveList/";

  private final MergeKeys keys;

  StrategicMerge(MergeKeys keys) {
    this.keys = keys;
  }

  /** The patched object, or null when the patch deletes it ({@code $patch: delete} at the top). */
  Map<String, Object> apply(Map<String, Object> original, Map<String, Object> patch) {
    return mergeMap(original, patch, List.of());
  }

  private Map<String, Object> mergeMap(
      Map<String, Object> original, Map<String, Object> patch, List<String> path) {
    Object directive = patch.get(DIRECTIVE);
    if ("delete".equals(directive)) {
      return null;
    }
    if ("replace".equals(directive)) {
      return clean(patch);
    }
    Map<String, Object> result = new LinkedHashMap<>(original);
    if (patch.get(RETAIN_KEYS) instanceof List<?> retained) {
      result.keySet().removeIf(key -> !retained.contains(key) && !patch.containsKey(key));
    }
    for (Map.Entry<String, Object> entry : patch.entrySet()) {
      String key = entry.getKey();
      Object value = entry.getValue();
      if (key.startsWith(DELETE_FROM_LIST)) {
        deleteFromPrimitiveList(result, key.substring(DELETE_FROM_LIST.length()), value);
      } else if (!key.startsWith("$")) {
        mergeField(result, key, value, append(path, key));
      }
    }
    return result;
  }

  private void mergeField(Map<String, Object> result, String key, Object value, List<String> path) {
    Object existing = result.get(key);
    if (value == null) {
      result.remove(key);
    } else if (value instanceof Map<?, ?> && existing instanceof Map<?, ?>) {
      Map<String, Object> merged = mergeMap(ObjectTree.map(existing), ObjectTree.map(value), path);
      if (merged == null) {
        result.remove(key);
      } else {
        result.put(key, merged);
      }
    } else if (value instanceof List<?> && existing instanceof List<?>) {
      result.put(key, mergeList(ObjectTree.list(existing), ObjectTree.list(value), path));
    } else if (value instanceof Map<?, ?> map && "delete".equals(map.get(DIRECTIVE))) {
      result.remove(key);
    } else {
      result.put(key, clean(value));
    }
  }

  private List<Object> mergeList(List<Object> original, List<Object> patch, List<String> path) {
    if (patch.stream().anyMatch(item -> item instanceof Map<?, ?> m && "replace".equals(m.get(DIRECTIVE)))) {
      List<Object> replaced = new ArrayList<>();
      patch.stream()
          .filter(item -> !(item instanceof Map<?, ?> m && m.containsKey(DIRECTIVE)))
          .forEach(item -> replaced.add(clean(item)));
      return replaced;
    }
    MergeKeys.Strategy strategy = keys.forList(path);
    if (strategy instanceof MergeKeys.Strategy.ByKey byKey) {
      return mergeByKey(original, patch, byKey.key(), path);
    }
    if (strategy instanceof MergeKeys.Strategy.PrimitiveSet) {
      Set<Object> merged = new LinkedHashSet<>(patch);
      merged.addAll(original);
      return new ArrayList<>(merged);
    }
    return cleanList(patch);
  }

  private List<Object> mergeByKey(
      List<Object> original, List<Object> patch, String key, List<String> path) {
    List<Object> result = new ArrayList<>();
    Set<Object> mentioned = new LinkedHashSet<>();
    for (Object item : patch) {
      Map<String, Object> patchItem = ObjectTree.map(item);
      if (patchItem == null || !patchItem.containsKey(key)) {
        result.add(clean(item));
        continue;
      }
      Object id = patchItem.get(key);
      mentioned.add(id);
      Map<String, Object> originalItem = findByKey(original, key, id);
      if ("delete".equals(patchItem.get(DIRECTIVE))) {
        continue;
      }
      if (originalItem == null) {
        result.add(clean(patchItem));
      } else {
        Map<String, Object> merged = mergeMap(originalItem, patchItem, path);
        if (merged != null) {
          result.add(merged);
        }
      }
    }
    for (Object item : original) {
      Map<String, Object> originalItem = ObjectTree.map(item);
      if (originalItem == null || !mentioned.contains(originalItem.get(key))) {
        result.add(item);
      }
    }
    return result;
  }

  private static Map<String, Object> findByKey(List<Object> items, String key, Object id) {
    for (Object item : items) {
      Map<String, Object> map = ObjectTree.map(item);
      if (map != null && Objects.equals(String.valueOf(map.get(key)), String.valueOf(id))) {
        return map;
      }
    }
    return null;
  }

  private static void deleteFromPrimitiveList(Map<String, Object> result, String field, Object values) {
    List<Object> list = ObjectTree.list(result.get(field));
    if (list != null && values instanceof List<?> remove) {
      List<Object> kept = new ArrayList<>(list);
      kept.removeIf(remove::contains);
      result.put(field, kept);
    }
  }

  /** A deep copy of patch content without directives, as it is inserted into the result. */
  @SuppressWarnings("unchecked")
  private static <T> T clean(T value) {
    if (value instanceof Map<?, ?> map) {
      Map<String, Object> copy = new LinkedHashMap<>();
      map.forEach(
          (k, v) -> {
            String key = String.valueOf(k);
            if (!key.startsWith("$") && v != null) {
              copy.put(key, clean(v));
            }
          });
      return (T) copy;
    }
    if (value instanceof List<?> list) {
      return (T) cleanList(ObjectTree.list(list));
    }
    return value;
  }

  private static List<Object> cleanList(List<Object> list) {
    List<Object> copy = new ArrayList<>();
    for (Object item : list) {
      if (!(item instanceof Map<?, ?> m && "delete".equals(m.get(DIRECTIVE)))) {
        copy.add(clean(item));
      }
    }
    return copy;
  }

  private static List<String> append(List<String> path, String key) {
    List<String> next = new ArrayList<>(path);
    next.add(key);
    return next;
  }
}
