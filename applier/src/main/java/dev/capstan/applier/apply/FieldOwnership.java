package dev.capstan.applier.apply;

import dev.capstan.applier.common.CapstanMetadata;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Decides from a live object alone whether applying a desired object would change anything.
 *
 * <p>Field paths are compared down to the first list: items of lists are keyed by schema-specific
 * merge keys in managedFields, so a list counts as one field. That errs towards writing: an overlap
 * inside a list makes the object be re-applied, never silently skipped. A list with an ignored
 * field inside ({@code spec.ignore}) is compared item by item instead, by the keys managedFields
 * give its items, so that the ignored part is left out and the rest of the list still counts.
 */
public final class FieldOwnership {

  private static final String APPLY = "Apply";

  private FieldOwnership() {}

  /**
   * True when the live object carries the desired digest, Capstan's apply entry still owns every
   * field Capstan sends, and no other manager owns any of them; ignored fields are left out.
   */
  public static boolean isUnchanged(GenericKubernetesResource live, DesiredObject desired) {
    return carriesDigest(live, desired) && ownershipIntact(live, desired);
  }

  /** True when the live object exists, is not being deleted and carries the desired digest. */
  public static boolean carriesDigest(GenericKubernetesResource live, DesiredObject desired) {
    if (live == null || live.getMetadata().getDeletionTimestamp() != null) {
      return false;
    }
    Map<String, String> annotations = live.getMetadata().getAnnotations();
    return annotations != null
        && desired.digest().equals(annotations.get(CapstanMetadata.APPLIED_DIGEST));
  }

  /**
   * True when Capstan's apply entry owns every field Capstan sends (ignored ones left out) and no
   * other manager (status writers aside) owns any of them.
   */
  static boolean ownershipIntact(GenericKubernetesResource live, DesiredObject desired) {
    List<ManagedFieldsEntry> entries = mainEntries(live);
    Map<String, Object> manifest = DesiredObject.asMap(desired.object());
    IgnoredFields ignored = IgnoredFields.locate(desired.ignored(), manifest, entries);
    Set<List<String>> wanted = new HashSet<>();
    for (List<String> path : desiredPaths(manifest, ignored.expanded(), entries)) {
      if (!ignored.covers(path)) {
        wanted.add(path);
      }
    }
    Set<List<String>> ours = null;
    List<Set<List<String>>> others = new ArrayList<>();
    for (ManagedFieldsEntry entry : entries) {
      Set<List<String>> paths = managedPaths(entry, ignored.expanded());
      if (isOurs(entry)) {
        ours = paths;
      } else {
        others.add(paths);
      }
    }
    if (ours == null || !covers(ours, wanted)) {
      return false;
    }
    return others.stream().noneMatch(theirs -> overlaps(theirs, wanted));
  }

  /**
   * Whether an Apply manager other than Capstan owns the field at {@code path}, or a field inside
   * it, or an atomic field around it.
   */
  static boolean ownedByAnotherApplyManager(
      GenericKubernetesResource live, List<String> path, Set<List<String>> expanded) {
    for (ManagedFieldsEntry entry : mainEntries(live)) {
      if (!APPLY.equals(entry.getOperation()) || isOurs(entry)) {
        continue;
      }
      for (List<String> owned : managedPaths(entry, expanded)) {
        if (startsWith(owned, path) || startsWith(path, owned)) {
          return true;
        }
      }
    }
    return false;
  }

  /** The live object's managedFields entries of the main resource (no subresource). */
  static List<ManagedFieldsEntry> mainEntries(GenericKubernetesResource live) {
    List<ManagedFieldsEntry> entries = live.getMetadata().getManagedFields();
    if (entries == null) {
      return List.of();
    }
    return entries.stream()
        .filter(e -> e.getSubresource() == null || e.getSubresource().isEmpty())
        .toList();
  }

  private static boolean isOurs(ManagedFieldsEntry entry) {
    return CapstanMetadata.FIELD_MANAGER.equals(entry.getManager())
        && APPLY.equals(entry.getOperation());
  }

  /** Leaf paths of a manifest, lists counted as leaves; identity and status fields left out. */
  public static Set<List<String>> desiredPaths(Map<String, Object> manifest) {
    return desiredPaths(manifest, Set.of(), List.of());
  }

  /**
   * Leaf paths of a manifest; the lists at {@code expanded} are walked item by item, each item
   * named by its key in the entries (a list with an item no key names stays one leaf).
   */
  static Set<List<String>> desiredPaths(
      Map<String, Object> manifest, Set<List<String>> expanded, List<ManagedFieldsEntry> entries) {
    Set<List<String>> paths = new HashSet<>();
    for (Map.Entry<String, Object> field : manifest.entrySet()) {
      String key = field.getKey();
      if (key.equals("apiVersion") || key.equals("kind") || key.equals("status")) {
        continue;
      }
      collect(List.of(key), field.getValue(), paths, expanded, entries);
    }
    paths.remove(List.of("metadata", "name"));
    paths.remove(List.of("metadata", "namespace"));
    return paths;
  }

  /** Leaf paths of a managedFields entry ({@code f:} keys), cut at the first list item key. */
  public static Set<List<String>> managedPaths(ManagedFieldsEntry entry) {
    return managedPaths(entry, Set.of());
  }

  /** Leaf paths of a managedFields entry; the lists at {@code expanded} walked by item key. */
  static Set<List<String>> managedPaths(ManagedFieldsEntry entry, Set<List<String>> expanded) {
    Set<List<String>> paths = new HashSet<>();
    if (entry.getFieldsV1() != null) {
      walkFields(List.of(), entry.getFieldsV1().getAdditionalProperties(), paths, expanded);
    }
    return paths;
  }

  private static void collect(
      List<String> path,
      Object value,
      Set<List<String>> out,
      Set<List<String>> expanded,
      List<ManagedFieldsEntry> entries) {
    if (value == null) {
      return;
    }
    if (value instanceof Map<?, ?> map && !map.isEmpty()) {
      for (Map.Entry<?, ?> child : map.entrySet()) {
        collect(
            append(path, String.valueOf(child.getKey())), child.getValue(), out, expanded, entries);
      }
    } else if (value instanceof List<?> list && !list.isEmpty() && expanded.contains(path)) {
      Optional<List<String>> items = itemElements(list, ListKeys.at(entries, path));
      if (items.isEmpty()) {
        out.add(path);
        return;
      }
      for (int i = 0; i < list.size(); i++) {
        collect(append(path, items.get().get(i)), list.get(i), out, expanded, entries);
      }
    } else {
      out.add(path);
    }
  }

  /** The path element of each item, or empty when an item has no key. */
  private static Optional<List<String>> itemElements(List<?> list, Set<String> keys) {
    List<String> elements = new ArrayList<>(list.size());
    for (Object item : list) {
      Optional<String> key = ListKeys.of(item, keys);
      if (key.isEmpty()) {
        return Optional.empty();
      }
      elements.add(ListKeys.element(key.get()));
    }
    return Optional.of(elements);
  }

  @SuppressWarnings("unchecked")
  private static void walkFields(
      List<String> path,
      Map<String, Object> node,
      Set<List<String>> out,
      Set<List<String>> expanded) {
    boolean hasFieldChild = false;
    for (Map.Entry<String, Object> child : node.entrySet()) {
      String key = child.getKey();
      Object value = child.getValue();
      Map<String, Object> next = value instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
      if (key.startsWith("f:")) {
        hasFieldChild = true;
        walkFields(append(path, key.substring(2)), next, out, expanded);
      } else if (key.startsWith("k:") && expanded.contains(path)) {
        hasFieldChild = true;
        walkFields(append(path, ListKeys.element(key)), next, out, expanded);
      } else if (!key.equals(".") && !path.isEmpty()) {
        // A list item (k:, v:, i:): the list itself is the leaf.
        out.add(path);
      }
    }
    if (!hasFieldChild && !path.isEmpty()) {
      out.add(path);
    }
  }

  /**
   * Every wanted path is owned: by a leaf below it, or by an atomic field above it (an atomic map
   * such as a Service selector is owned as one field).
   */
  private static boolean covers(Set<List<String>> owned, Set<List<String>> wanted) {
    return wanted.stream()
        .allMatch(w -> owned.stream().anyMatch(o -> startsWith(o, w) || startsWith(w, o)));
  }

  private static boolean overlaps(Set<List<String>> theirs, Set<List<String>> wanted) {
    for (List<String> t : theirs) {
      for (List<String> w : wanted) {
        if (startsWith(t, w) || startsWith(w, t)) {
          return true;
        }
      }
    }
    return false;
  }

  static boolean startsWith(List<String> path, List<String> prefix) {
    return path.size() >= prefix.size() && path.subList(0, prefix.size()).equals(prefix);
  }

  private static List<String> append(List<String> path, String key) {
    List<String> next = new ArrayList<>(path.size() + 1);
    next.addAll(path);
    next.add(key);
    return List.copyOf(next);
  }
}
