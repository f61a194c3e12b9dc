package dev.capstan.engine.dependencies;

import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.engine.NamespacedName;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The order in which Kustomizations deleted together delete their objects: reverse dependency
 * order. A Kustomization being deleted deletes its objects only once every Kustomization that
 * depends on it and is being deleted too is gone. Pure: a snapshot of the Kustomizations in, a
 * verdict out; no wait is unbounded.
 *
 * <ul>
 *   <li>A dependent being deleted is waited for while something below the Kustomization (the
 *       dependents it waits for, theirs, and so on) keeps going away: after {@code patience} with
 *       nothing gone, the objects are deleted anyway, and that is reported.
 *   <li>A dependent that is not being deleted is given {@code settle} to be deleted as well (the
 *       Kustomizations of a namespace, or of one {@code kubectl delete}, are marked one after the
 *       other); then it is not waited for, and that is reported.
 *   <li>Kustomizations being deleted that depend on each other in a circle do not wait for each
 *       other; the cycle is reported.
 * </ul>
 */
public final class DeletionOrder {

  /** What a Kustomization being deleted does now. */
  public enum Kind {
    /** Delete its objects. */
    PROCEED,
    /** Not yet: dependents are still there. */
    WAIT
  }

  /**
   * @param message what to tell the user; empty when there is nothing to say
   * @param warning the order could not be kept (a dependent stays, gave no sign of progress, or is
   *     in a cycle with this one)
   */
  public record Verdict(Kind kind, String message, boolean warning) {
    public boolean waits() {
      return kind == Kind.WAIT;
    }
  }

  private final NamespacedName self;
  private final Set<NamespacedName> waitedFor;
  private final Set<NamespacedName> below;
  private final Set<NamespacedName> staying;
  private final Optional<List<NamespacedName>> cycle;

  private DeletionOrder(
      NamespacedName self,
      Set<NamespacedName> waitedFor,
      Set<NamespacedName> below,
      Set<NamespacedName> staying,
      Optional<List<NamespacedName>> cycle) {
    this.self = self;
    this.waitedFor = waitedFor;
    this.below = below;
    this.staying = staying;
    this.cycle = cycle;
  }

  /** The order of {@code self} among {@code all} (the Kustomizations the engine sees). */
  public static DeletionOrder of(NamespacedName self, Collection<Kustomization> all) {
    Map<NamespacedName, List<NamespacedName>> dependsOn = new HashMap<>();
    Set<NamespacedName> deleting = new TreeSet<>();
    for (Kustomization ks : all) {
      NamespacedName key = NamespacedName.of(ks);
      dependsOn.put(key, DependencyReferences.kustomizations(ks));
      if (ks.getMetadata().getDeletionTimestamp() != null) {
        deleting.add(key);
      }
    }
    deleting.add(self);
    Map<NamespacedName, List<NamespacedName>> amongDeleting =
        dependsOn.entrySet().stream()
            .filter(e -> deleting.contains(e.getKey()))
            .collect(
                Collectors.toMap(
                    Map.Entry::getKey,
                    e -> e.getValue().stream().filter(deleting::contains).toList()));
    Optional<List<NamespacedName>> cycle = new DependencyGraph(amongDeleting).cycleThrough(self);
    Set<NamespacedName> inCycle = new TreeSet<>(cycle.orElse(List.of()));
    Set<NamespacedName> dependents = dependentsOf(self, dependsOn);
    Set<NamespacedName> waitedFor = new TreeSet<>(dependents);
    waitedFor.retainAll(deleting);
    waitedFor.removeAll(inCycle);
    Set<NamespacedName> staying = new TreeSet<>(dependents);
    staying.removeAll(deleting);
    return new DeletionOrder(
        self, waitedFor, below(waitedFor, dependsOn, deleting, self), staying, cycle);
  }

  /**
   * What is waited for, directly or through the dependents waited for: when one of them goes away,
   * the deletion is making progress.
   */
  public Set<NamespacedName> below() {
    return below;
  }

  /** The dependents being deleted that this one waits for. */
  public Set<NamespacedName> waitedFor() {
    return waitedFor;
  }

  /**
   * The verdict, given how long the engine has seen this Kustomization being deleted ({@code
   * seenFor}) and how long nothing {@link #below()} it went away ({@code stalledFor}).
   */
  public Verdict verdict(
      Duration seenFor, Duration stalledFor, Duration settle, Duration patience) {
    if (!waitedFor.isEmpty()) {
      if (stalledFor.compareTo(patience) < 0) {
        return new Verdict(
            Kind.WAIT,
            "waiting for the Kustomizations that depend on it to be deleted first: "
                + names(waitedFor),
            false);
      }
      return new Verdict(
          Kind.PROCEED,
          "deleting its objects although "
              + names(waitedFor)
              + (waitedFor.size() == 1 ? ", which depends on it, is" : ", which depend on it, are")
              + " still being deleted: nothing of them went away for "
              + patience.toSeconds()
              + "s",
          true);
    }
    if (!staying.isEmpty() && seenFor.compareTo(settle) < 0) {
      return new Verdict(
          Kind.WAIT,
          "waiting "
              + settle.toSeconds()
              + "s to see whether the Kustomizations that depend on it are deleted too: "
              + names(staying),
          false);
    }
    if (!staying.isEmpty()) {
      return new Verdict(
          Kind.PROCEED,
          "deleting its objects although "
              + names(staying)
              + (staying.size() == 1 ? ", which depends on it, is" : ", which depend on it, are")
              + " not being deleted",
          true);
    }
    if (cycle.isPresent()) {
      return new Verdict(
          Kind.PROCEED,
          "dependency cycle among Kustomizations being deleted: "
              + DependencyGraph.describe(cycle.get())
              + "; deleting its objects without waiting for the others in it",
          true);
    }
    return new Verdict(Kind.PROCEED, "", false);
  }

  private static Set<NamespacedName> dependentsOf(
      NamespacedName key, Map<NamespacedName, List<NamespacedName>> dependsOn) {
    Set<NamespacedName> dependents = new TreeSet<>();
    dependsOn.forEach(
        (node, deps) -> {
          if (!node.equals(key) && deps.contains(key)) {
            dependents.add(node);
          }
        });
    return dependents;
  }

  /** The dependents being deleted below {@code start}, transitively; {@code self} left out. */
  private static Set<NamespacedName> below(
      Set<NamespacedName> start,
      Map<NamespacedName, List<NamespacedName>> dependsOn,
      Set<NamespacedName> deleting,
      NamespacedName self) {
    Set<NamespacedName> seen = new TreeSet<>(start);
    Deque<NamespacedName> todo = new ArrayDeque<>(start);
    while (!todo.isEmpty()) {
      for (NamespacedName next : dependentsOf(todo.pop(), dependsOn)) {
        if (deleting.contains(next) && !next.equals(self) && seen.add(next)) {
          todo.push(next);
        }
      }
    }
    return seen;
  }

  private static String names(Set<NamespacedName> keys) {
    return keys.stream().map(NamespacedName::toString).collect(Collectors.joining(", "));
  }

  @Override
  public String toString() {
    return "DeletionOrder[" + self + " waits for " + waitedFor + "]";
  }
}
