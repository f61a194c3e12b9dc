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

/**
 * Which object depends on which: a snapshot, for cycle detection. Immutable. The nodes are
 * Kustomizations by name ({@link NamespacedName}) or, where kinds mix, objects ({@link
 * ObjectDependency}).
 */
public final class DependencyGraph<N extends Comparable<? super N>> {
  private final Map<N, Set<N>> edges;

  /**
   * @param dependsOn for each node, the nodes it depends on
   */
  public DependencyGraph(Map<N, ? extends Iterable<N>> dependsOn) {
    Map<N, Set<N>> copy = new TreeMap<>();
    dependsOn.forEach(
        (node, deps) -> {
          Set<N> sorted = new TreeSet<>();
          deps.forEach(sorted::add);
          copy.put(node, Collections.unmodifiableSet(sorted));
        });
    this.edges = Collections.unmodifiableMap(copy);
  }

  /**
   * A cycle that {@code start} is part of, as the list of its members starting with the
   * lexicographically smallest, so that every member reports the same cycle; empty if none.
   */
  public Optional<List<N>> cycleThrough(N start) {
    // Depth-first search for a path from start's dependencies back to start.
    Deque<N> path = new ArrayDeque<>();
    Set<N> dead = new HashSet<>();
    path.push(start);
    if (!reachesStart(start, start, path, dead)) {
      return Optional.empty();
    }
    List<N> cycle = new ArrayList<>(path);
    Collections.reverse(cycle);
    return Optional.of(rotateToSmallest(cycle));
  }

  /** {@code ns/a -> ns/b -> ns/a}: a cycle as users read it. */
  public static String describe(List<?> cycle) {
    return cycle.stream().map(Object::toString).collect(Collectors.joining(" -> "))
        + " -> "
        + cycle.get(0);
  }

  private boolean reachesStart(N node, N start, Deque<N> path, Set<N> dead) {
    for (N next : edges.getOrDefault(node, Set.of())) {
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

  private static <N extends Comparable<? super N>> List<N> rotateToSmallest(List<N> cycle) {
    int smallest = cycle.indexOf(Collections.min(cycle));
    List<N> rotated = new ArrayList<>(cycle.subList(smallest, cycle.size()));
    rotated.addAll(cycle.subList(0, smallest));
    return List.copyOf(rotated);
  }
}
