package dev.capstan.engine.dependencies;

import dev.capstan.api.helm.HelmRelease;
import dev.capstan.api.kustomize.Kustomization;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * A dependency cycle through Kustomizations and HelmReleases, which may depend on each other in
 * either direction: found by following {@code spec.dependsOn} from the dependent, each object read
 * once through the dependent's own reads (so that it learns nothing it could not read), at most
 * {@link #MAX_OBJECTS} objects; then judged by the one {@link DependencyGraph}. Objects of other
 * kinds depend on nothing here. Pure but for the reads it is given.
 */
public final class DependencyWalk {
  /** How many objects a walk reads at most: more is a graph no tenant needs, and not followed. */
  public static final int MAX_OBJECTS = 100;

  private static final String HELM_RELEASE = "HelmRelease";
  private static final String KUSTOMIZATION = "Kustomization";

  private DependencyWalk() {}

  /** A HelmRelease as a node of the walk. */
  public static ObjectDependency helmRelease(String namespace, String name) {
    return new ObjectDependency(
        HelmRelease.GROUP + "/" + HelmRelease.VERSION, HELM_RELEASE, namespace, name);
  }

  /** A Kustomization as a node of the walk. */
  public static ObjectDependency kustomization(String namespace, String name) {
    return new ObjectDependency(
        Kustomization.GROUP + "/" + Kustomization.VERSION, KUSTOMIZATION, namespace, name);
  }

  /**
   * A cycle {@code start} is part of, its members from the smallest; empty if none was found.
   *
   * @param start the dependent
   * @param reads reads an object as the dependent may
   */
  public static Optional<List<ObjectDependency>> cycleThrough(
      ObjectDependency start, Function<ObjectDependency, DependencyLookup> reads) {
    return walk(start, reads);
  }

  /**
   * A cycle {@code start} is part of, its members from the smallest; empty if none was found. The
   * walk starts from {@code startObject}, the dependent as it is in hand (the version being
   * reconciled), and reads only the objects it names.
   *
   * @param start the dependent
   * @param startObject the dependent's object
   * @param reads reads any other object
   */
  public static Optional<List<ObjectDependency>> cycleThrough(
      ObjectDependency start,
      Map<String, Object> startObject,
      Function<ObjectDependency, DependencyLookup> reads) {
    DependencyLookup self = new DependencyLookup.Found(startObject);
    return walk(start, id -> id.equals(start) ? self : reads.apply(id));
  }

  private static Optional<List<ObjectDependency>> walk(
      ObjectDependency start, Function<ObjectDependency, DependencyLookup> reads) {
    Map<ObjectDependency, List<ObjectDependency>> edges = new LinkedHashMap<>();
    Deque<ObjectDependency> next = new ArrayDeque<>(List.of(start));
    while (!next.isEmpty() && edges.size() < MAX_OBJECTS) {
      ObjectDependency node = next.poll();
      if (edges.containsKey(node)) {
        continue;
      }
      List<ObjectDependency> deps =
          reads.apply(node) instanceof DependencyLookup.Found found
              ? dependsOn(node, found.object())
              : List.of();
      edges.put(node, deps);
      deps.stream().filter(d -> !edges.containsKey(d)).forEach(next::add);
    }
    return new DependencyGraph<>(edges).cycleThrough(start);
  }

  /**
   * The Kustomizations and HelmReleases {@code object} (a {@code node}) names in its dependsOn: an
   * entry without kind names its own kind, as in Flux; each namespace defaults to its own.
   */
  static List<ObjectDependency> dependsOn(ObjectDependency node, Map<String, Object> object) {
    if (!(object.get("spec") instanceof Map<?, ?> spec)
        || !(spec.get("dependsOn") instanceof List<?> entries)) {
      return List.of();
    }
    List<ObjectDependency> deps = new ArrayList<>();
    for (Object entry : entries) {
      if (entry instanceof Map<?, ?> ref && ref.get("name") instanceof String name) {
        String kind = ref.get("kind") instanceof String k && !k.isEmpty() ? k : node.kind();
        String apiVersion = ref.get("apiVersion") instanceof String v ? v : null;
        String namespace =
            ref.get("namespace") instanceof String ns && !ns.isEmpty() ? ns : node.namespace();
        ofKind(kind, apiVersion, namespace, name).ifPresent(deps::add);
      }
    }
    return deps;
  }

  private static Optional<ObjectDependency> ofKind(
      String kind, String apiVersion, String namespace, String name) {
    if (HELM_RELEASE.equals(kind) && inGroup(apiVersion, HelmRelease.GROUP)) {
      return Optional.of(helmRelease(namespace, name));
    }
    if (KUSTOMIZATION.equals(kind) && inGroup(apiVersion, Kustomization.GROUP)) {
      return Optional.of(kustomization(namespace, name));
    }
    return Optional.empty();
  }

  private static boolean inGroup(String apiVersion, String group) {
    return apiVersion == null || apiVersion.startsWith(group + "/");
  }
}
