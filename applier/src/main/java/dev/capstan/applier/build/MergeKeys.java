package dev.capstan.applier.build;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The patch strategy of list fields of built-in kinds, as the Kubernetes API types declare it
 * ({@code patchStrategy:"merge"} with a {@code patchMergeKey}). Lists not listed here are replaced
 * whole by a patch, as Kubernetes does for lists without a merge strategy (e.g. tolerations,
 * envFrom, args).
 */
final class MergeKeys {

  /** How a patch treats one list. */
  sealed interface Strategy {
    /** Items are matched by the value of {@code key}. */
    record ByKey(String key) implements Strategy {}

    /** A list of scalars merged as a set (e.g. finalizers). */
    record PrimitiveSet() implements Strategy {}

    /** The patch's list replaces the original. */
    record Replace() implements Strategy {}
  }

  private static final Set<String> CONTAINER_LISTS =
      Set.of("containers", "initContainers", "ephemeralContainers");

  /** List field name → merge key, valid wherever the field appears in a built-in kind. */
  private static final Map<String, String> BY_FIELD =
      Map.ofEntries(
          Map.entry("containers", "name"),
          Map.entry("initContainers", "name"),
          Map.entry("ephemeralContainers", "name"),
          Map.entry("volumes", "name"),
          Map.entry("imagePullSecrets", "name"),
          Map.entry("volumeMounts", "mountPath"),
          Map.entry("volumeDevices", "devicePath"),
          Map.entry("hostAliases", "ip"),
          Map.entry("topologySpreadConstraints", "topologyKey"),
          Map.entry("resourceClaims", "name"),
          Map.entry("schedulingGates", "name"),
          Map.entry("resizePolicy", "resourceName"),
          Map.entry("conditions", "type"),
          Map.entry("ownerReferences", "uid"));

  private static final Strategy REPLACE = new Strategy.Replace();

  private final boolean builtIn;
  private final String kind;

  MergeKeys(boolean builtIn, String kind) {
    this.builtIn = builtIn;
    this.kind = kind;
  }

  /** The strategy for the list at {@code path} (the map keys from the object's root). */
  Strategy forList(List<String> path) {
    if (!builtIn || path.isEmpty()) {
      return REPLACE;
    }
    String field = path.get(path.size() - 1);
    String parent = path.size() > 1 ? path.get(path.size() - 2) : "";
    if (field.equals("finalizers") && parent.equals("metadata")) {
      return new Strategy.PrimitiveSet();
    }
    if (field.equals("env") && CONTAINER_LISTS.contains(parent)) {
      return new Strategy.ByKey("name");
    }
    if (field.equals("ports")) {
      if (CONTAINER_LISTS.contains(parent)) {
        return new Strategy.ByKey("containerPort");
      }
      if (kind.equals("Service") && path.equals(List.of("spec", "ports"))) {
        return new Strategy.ByKey("port");
      }
      return REPLACE;
    }
    String key = BY_FIELD.get(field);
    return key == null ? REPLACE : new Strategy.ByKey(key);
  }
}
