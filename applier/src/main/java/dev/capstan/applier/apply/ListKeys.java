package dev.capstan.applier.apply;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The keys by which managedFields name the items of a list ({@code k:{"name":"app"}}), and which
 * item of an object's list a key names. A list's items are keyed by the fields of its merge keys,
 * which only the schema knows; the keys in managedFields are matched against the items' fields.
 */
final class ListKeys {
  private static final String KEYED = "k:";

  /**
   * Marks a path element that names a list item by its key, so that it never reads as a map key
   * that happens to start with {@code k:}: no Kubernetes field name holds a NUL character.
   */
  private static final String ITEM = "\u0000";

  private ListKeys() {}

  /**
   * The {@code k:} keys under the list at {@code path} in any of the entries ({@code path} as field
   * paths write it: plain keys, and item keys for items of expanded lists).
   */
  static Set<String> at(List<ManagedFieldsEntry> entries, List<String> path) {
    Set<String> keys = new LinkedHashSet<>();
    for (ManagedFieldsEntry entry : entries) {
      if (entry.getFieldsV1() == null) {
        continue;
      }
      node(entry.getFieldsV1().getAdditionalProperties(), path)
          .ifPresent(
              node -> node.keySet().stream().filter(k -> k.startsWith(KEYED)).forEach(keys::add));
    }
    return keys;
  }

  /** The key among {@code keys} whose fields all equal the item's; empty when none does. */
  static Optional<String> of(Object item, Set<String> keys) {
    if (!(item instanceof Map<?, ?> fields)) {
      return Optional.empty();
    }
    return keys.stream().filter(k -> names(k, fields)).findFirst();
  }

  /** The item of a list a key names, if one has its fields. */
  static Optional<Object> item(List<?> list, String key) {
    return list.stream()
        .filter(i -> i instanceof Map<?, ?> m && names(key, m))
        .map(Object.class::cast)
        .findFirst();
  }

  private static boolean names(String key, Map<?, ?> item) {
    Map<?, ?> wanted;
    try {
      wanted = Serialization.jsonMapper().readValue(key.substring(KEYED.length()), Map.class);
    } catch (JsonProcessingException e) {
      return false;
    }
    if (wanted.isEmpty()) {
      return false;
    }
    for (Map.Entry<?, ?> field : wanted.entrySet()) {
      if (!sameValue(field.getValue(), item.get(field.getKey()))) {
        return false;
      }
    }
    return true;
  }

  /** Equal as JSON values (an int and a long of the same number are the same). */
  private static boolean sameValue(Object a, Object b) {
    if (a instanceof Number x && b instanceof Number y) {
      return x.toString().equals(y.toString());
    }
    return Objects.equals(a, b);
  }

  @SuppressWarnings("unchecked")
  private static Optional<Map<String, Object>> node(Map<String, Object> fields, List<String> path) {
    Map<String, Object> node = fields;
    for (String element : path) {
      Object child = node.get(fieldsKey(element));
      if (!(child instanceof Map<?, ?> map)) {
        return Optional.empty();
      }
      node = (Map<String, Object>) map;
    }
    return Optional.of(node);
  }

  /** The path element of a list item named by a {@code k:} key. */
  static String element(String key) {
    return ITEM + key;
  }

  /** Whether a path element names a list item. */
  static boolean isItem(String element) {
    return element.startsWith(ITEM);
  }

  /** The key of a managedFields node that a path element names. */
  static String fieldsKey(String element) {
    return isItem(element) ? element.substring(ITEM.length()) : "f:" + element;
  }

  /** The key a path element naming a list item holds; the element itself otherwise. */
  static String keyOf(String element) {
    return isItem(element) ? element.substring(ITEM.length()) : element;
  }
}
