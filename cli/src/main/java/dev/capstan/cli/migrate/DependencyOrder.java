package dev.capstan.cli.migrate;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Objects in their given order, except that each Kustomization or HelmRelease comes after the
 * objects of its {@code spec.dependsOn} that are among them (a Kustomization's name Kustomizations;
 * a HelmRelease's name HelmReleases unless an entry gives another kind), and a Kustomization after
 * the Kustomizations and HelmReleases its health checks name. A dependency that is not there, or a
 * cycle, changes nothing. Pure.
 */
final class DependencyOrder {

  private DependencyOrder() {}

  static List<Manifest> of(List<Manifest> objects) {
    Map<String, Manifest> dependable = new HashMap<>();
    for (Manifest object : objects) {
      if (object.kind() == FluxKind.KUSTOMIZATION || object.kind() == FluxKind.HELM_RELEASE) {
        dependable.put(Planner.key(object.kind(), object.namespace(), object.name()), object);
      }
    }
    Set<Manifest> placed = new LinkedHashSet<>();
    for (Manifest object : objects) {
      place(object, dependable, placed, new LinkedHashSet<>());
    }
    return new ArrayList<>(placed);
  }

  private static void place(
      Manifest object, Map<String, Manifest> dependable, Set<Manifest> placed, Set<Manifest> path) {
    if (placed.contains(object) || !path.add(object)) {
      return; // placed already, or a cycle: the given order decides
    }
    for (String key : dependencies(object)) {
      Manifest found = dependable.get(key);
      if (found != null) {
        place(found, dependable, placed, path);
      }
    }
    placed.add(object);
  }

  /**
   * The keys ({@link Planner#key}) of what {@code object} waits for: its {@code dependsOn}, and a
   * Kustomization's health checks of Kustomizations and HelmReleases, whose twins must be there
   * before its own twin can be Ready.
   */
  private static List<String> dependencies(Manifest object) {
    List<String> keys = new ArrayList<>();
    if (object.kind() != FluxKind.KUSTOMIZATION && object.kind() != FluxKind.HELM_RELEASE) {
      return keys;
    }
    if (object.spec().get("dependsOn") instanceof List<?> dependencies) {
      for (Object dependency : dependencies) {
        Map<?, ?> ref = Manifest.map(dependency);
        String kind =
            object.kind() == FluxKind.HELM_RELEASE && ref.get("kind") instanceof String named
                ? named
                : object.kind().kind;
        keys.add(key(kind, ref, object));
      }
    }
    if (object.kind() == FluxKind.KUSTOMIZATION
        && object.spec().get("healthChecks") instanceof List<?> checks) {
      for (Object check : checks) {
        Map<?, ?> ref = Manifest.map(check);
        keys.add(key(String.valueOf(ref.get("kind")), ref, object));
      }
    }
    return keys;
  }

  private static String key(String kind, Map<?, ?> ref, Manifest from) {
    String namespace =
        ref.get("namespace") instanceof String ns && !ns.isEmpty() ? ns : from.namespace();
    return kind + "/" + namespace + "/" + ref.get("name");
  }
}
