package dev.capstan.engine.dependencies;

import dev.capstan.engine.core.NamespacedName;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/** Which Kustomization depends on which: a snapshot, for cycle detection. Immutable. */
public final class DependencyGraph {
  private final Map<NamespacedName, Set<NamespacedName>> edges;

  /**
   * @param dependsOn for each Kustomization, the Kustomizations it depends on
   */
  public DependencyGraph(Map<NamespacedName, ? extends Iterable<NamespacedName>> dependsOn) {
    Map<NamespacedName, Set<NamespacedName>> copy = new TreeMap<>();
    dependsOn.forEach(
        (node, deps) -> {
          Set<NamespacedName> sorted = new TreeSet<>();
          deps.forEach(sorted::add);
          copy.put(node, Collections.unmodifiableSet(sorted));
        });
    this.edges = Collections.unmodifiableMap(copy);
  }

  /**
   * A cycle that {@code start} is part of, as the list of its members starting with the
   * lexicographically smallest, so that every member reports the same cycle; empty if none.
   */
  public Optional<List<NamespacedName>> cycleThrough(NamespacedName start) {
    // Depth-first search for a path from start's dependencies back to start.
    Deque<NamespacedName> path = new ArrayDeque<>();
    Set<NamespacedName> dead = new HashSet<>();
    path.push(start);
    if (!reachesStart(start, start, path, dead)) {
      return Optional.empty();
    }
    List<NamespacedName> cycle = new ArrayList<>(path);
    Collections.reverse(cycle);
    return Optional.of(rotateToSmallest(cycle));
  }

  /** {@code ns/a -> ns/b -> ns/a}: a cycle as users read it. */
  public static String describe(List<NamespacedName> cycle) {
    return cycle.stream().map(NamespacedName::toString).collect(Collectors.joining(" -> "))
        + " -> "
        + cycle.get(0);
  }

  private boolean reachesStart(
      NamespacedName node,
      NamespacedName start,
      Deque<NamespacedName> path,
      Set<NamespacedName> dead) {
    for (NamespacedName next : edges.getOrDefault(node, Set.of())) {
      if (next.equals(start)) {
        return true;
      }
      if (dead.contains(next) || path.contains(next)) {
        continue;
      }
      path.push(next);
      if (reachesStart(next, start, path, dead)) {
        return true;
      }
      path.pop();
      dead.add(next);
    }
    return false;
  }

  private static List<NamespacedName> rotateToSmallest(List<NamespacedName> cycle) {
    int smallest = cycle.indexOf(Collections.min(cycle));
    List<NamespacedName> rotated = new ArrayList<>(cycle.subList(smallest, cycle.size()));
    rotated.addAll(cycle.subList(0, smallest));
    return List.copyOf(rotated);
  }
}
