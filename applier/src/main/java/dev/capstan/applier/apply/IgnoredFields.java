package dev.capstan.applier.apply;

import dev.capstan.applier.ignore.JsonPointer;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The ignored fields of one object as field paths, the form ownership is compared in: a map key is
 * a path element as it is, a list item is named by the {@code k:} key managedFields give it. An
 * index of a pointer counts the items of the list as the manifest writes them.
 *
 * @param paths where each ignored field is, for the pointers that could be located
 * @param expanded the lists an ignored field lies inside: compared item by item rather than as one
 *     field, so that the ignored part of an item is left out and the rest is not
 */
record IgnoredFields(Set<List<String>> paths, Set<List<String>> expanded) {

  static final IgnoredFields NONE = new IgnoredFields(Set.of(), Set.of());

  IgnoredFields {
    paths = Set.copyOf(paths);
    expanded = Set.copyOf(expanded);
  }

  /**
   * Locates the pointers in the manifest. A pointer through a list item that no key of the entries
   * names (a list of scalars, an atomic list) cannot be located: the list stays one field, and a
   * change anywhere in it counts, which errs towards writing.
   */
  static IgnoredFields locate(
      List<JsonPointer> pointers, Map<String, Object> manifest, List<ManagedFieldsEntry> entries) {
    if (pointers.isEmpty()) {
      return NONE;
    }
    Set<List<String>> paths = new HashSet<>();
    Set<List<String>> expanded = new HashSet<>();
    for (JsonPointer pointer : pointers) {
      locate(pointer, manifest, entries, expanded).ifPresent(paths::add);
    }
    return new IgnoredFields(paths, expanded);
  }

  private static Optional<List<String>> locate(
      JsonPointer pointer,
      Map<String, Object> manifest,
      List<ManagedFieldsEntry> entries,
      Set<List<String>> expanded) {
    List<String> path = new ArrayList<>();
    Set<List<String>> lists = new HashSet<>();
    Object node = manifest;
    for (String token : pointer.segments()) {
      if (node instanceof List<?> list) {
        int index = index(token);
        if (index < 0 || index >= list.size()) {
          return Optional.empty();
        }
        Optional<String> key = ListKeys.of(list.get(index), ListKeys.at(entries, path));
        if (key.isEmpty()) {
          return Optional.empty();
        }
        lists.add(List.copyOf(path));
        path.add(ListKeys.element(key.get()));
        node = list.get(index);
      } else {
        path.add(token);
        node = node instanceof Map<?, ?> map ? map.get(token) : null;
      }
    }
    expanded.addAll(lists);
    return Optional.of(List.copyOf(path));
  }

  /** Whether a field path is an ignored field or lies inside one. */
  boolean covers(List<String> path) {
    if (paths.isEmpty()) {
      return false;
    }
    for (int length = 0; length <= path.size(); length++) {
      if (paths.contains(path.subList(0, length))) {
        return true;
      }
    }
    return false;
  }

  private static int index(String token) {
    if (token.isEmpty() || token.length() > 9 || !token.chars().allMatch(Character::isDigit)) {
      return -1;
    }
    return Integer.parseInt(token);
  }
}
