package dev.capstan.applier.apply;

import dev.capstan.applier.CapstanMetadata;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Decides from a live object alone whether applying a desired object would change anything.
 *
 * <p>Field paths are compared down to the first list: items of lists are keyed by schema-specific
 * merge keys in managedFields, so a list counts as one field. That errs towards writing: an overlap
 * inside a list makes the object be re-applied, never silently skipped.
 */
public final class FieldOwnership {

  private static final String APPLY = "Apply";

  private FieldOwnership() {}

  /**
   * True when the live object carries the desired digest, Capstan's apply entry still owns every
   * field Capstan sends, and no other manager owns any of them.
   */
  public static boolean isUnchanged(GenericKubernetesResource live, DesiredObject desired) {
    if (live == null || live.getMetadata().getDeletionTimestamp() != null) {
      return false;
    }
    Map<String, String> annotations = live.getMetadata().getAnnotations();
    if (annotations == null
        || !desired.digest().equals(annotations.get(CapstanMetadata.APPLIED_DIGEST))) {
      return false;
    }
    Set<List<String>> wanted = desiredPaths(DesiredObject.asMap(desired.object()));
    Set<List<String>> ours = null;
    List<Set<List<String>>> others = new ArrayList<>();
    List<ManagedFieldsEntry> entries = live.getMetadata().getManagedFields();
    for (ManagedFieldsEntry entry : entries == null ? List.<ManagedFieldsEntry>of() : entries) {
      if (entry.getSubresource() != null && !entry.getSubresource().isEmpty()) {
        continue;
      }
      Set<List<String>> paths = managedPaths(entry);
      if (CapstanMetadata.FIELD_MANAGER.equals(entry.getManager())
          && APPLY.equals(entry.getOperation())) {
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

  /** Leaf paths of a manifest, lists counted as leaves; identity and status fields left out. */
  public static Set<List<String>> desiredPaths(Map<String, Object> manifest) {
    Set<List<String>> paths = new HashSet<>();
    for (Map.Entry<String, Object> field : manifest.entrySet()) {
      String key = field.getKey();
      if (key.equals("apiVersion") || key.equals("kind") || key.equals("status")) {
        continue;
      }
      collect(List.of(key), field.getValue(), paths);
    }
    paths.remove(List.of("metadata", "name"));
    paths.remove(List.of("metadata", "namespace"));
    return paths;
  }

  /** Leaf paths of a managedFields entry ({@code f:} keys), cut at the first list item key. */
  @SuppressWarnings("unchecked")
  public static Set<List<String>> managedPaths(ManagedFieldsEntry entry) {
    Set<List<String>> paths = new HashSet<>();
    if (entry.getFieldsV1() != null) {
      walkFields(List.of(), entry.getFieldsV1().getAdditionalProperties(), paths);
    }
    return paths;
  }

  private static void collect(List<String> path, Object value, Set<List<String>> out) {
    if (value == null) {
      return;
    }
    if (value instanceof Map<?, ?> map && !map.isEmpty()) {
      for (Map.Entry<?, ?> child : map.entrySet()) {
        collect(append(path, String.valueOf(child.getKey())), child.getValue(), out);
      }
    } else {
      out.add(path);
    }
  }

  @SuppressWarnings("unchecked")
  private static void walkFields(
      List<String> path, Map<String, Object> node, Set<List<String>> out) {
    boolean hasFieldChild = false;
    for (Map.Entry<String, Object> child : node.entrySet()) {
      String key = child.getKey();
      if (key.startsWith("f:")) {
        hasFieldChild = true;
        Object value = child.getValue();
        Map<String, Object> next =
            value instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
        walkFields(append(path, key.substring(2)), next, out);
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

  private static boolean startsWith(List<String> path, List<String> prefix) {
    return path.size() >= prefix.size() && path.subList(0, prefix.size()).equals(prefix);
  }

  private static List<String> append(List<String> path, String key) {
    List<String> next = new ArrayList<>(path.size() + 1);
    next.addAll(path);
    next.add(key);
    return List.copyOf(next);
  }
}
