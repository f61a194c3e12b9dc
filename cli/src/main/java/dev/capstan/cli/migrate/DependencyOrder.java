package dev.capstan.cli.migrate;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Objects in their given order, except that each Kustomization comes after the Kustomizations of
 * its {@code spec.dependsOn} (a dependency that is not there, or a cycle, changes nothing). Pure.
 */
final class DependencyOrder {

  private DependencyOrder() {}

  static List<Manifest> of(List<Manifest> objects) {
    Map<String, Manifest> kustomizations = new HashMap<>();
    for (Manifest object : objects) {
      if (object.kind() == FluxKind.KUSTOMIZATION) {
        kustomizations.put(object.namespace() + "/" + object.name(), object);
      }
    }
    Set<Manifest> placed = new LinkedHashSet<>();
    for (Manifest object : objects) {
      place(object, kustomizations, placed, new LinkedHashSet<>());
    }
    return new ArrayList<>(placed);
  }

  private static void place(
      Manifest object,
      Map<String, Manifest> kustomizations,
      Set<Manifest> placed,
      Set<Manifest> path) {
    if (placed.contains(object) || !path.add(object)) {
      return; // placed already, or a cycle: the given order decides
    }
    if (object.kind() == FluxKind.KUSTOMIZATION
        && object.spec().get("dependsOn") instanceof List<?> dependencies) {
      for (Object dependency : dependencies) {
        Map<?, ?> ref = Manifest.map(dependency);
        String namespace = ref.get("namespace") instanceof String ns ? ns : object.namespace();
        Manifest named = kustomizations.get(namespace + "/" + ref.get("name"));
        if (named != null) {
          place(named, kustomizations, placed, path);
        }
      }
    }
    placed.add(object);
  }
}
