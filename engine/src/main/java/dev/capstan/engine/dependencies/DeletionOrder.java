package dev.capstan.engine.dependencies;

import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.engine.core.NamespacedName;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The order in which Kustomizations deleted together delete their objects: reverse dependency
 * order. A Kustomization being deleted deletes its objects only once every Kustomization that
 * depends on it and is being deleted too is gone. Pure: a snapshot of the Kustomizations in, a
 * verdict out; no wait is unbounded, and none is longer than the deleting Kustomization's own
 * bound, whatever the Kustomizations that depend on it say (they may be another tenant's).
 *
 * <ul>
 *   <li>A dependent being deleted is waited for until the bound (the deleting Kustomization's own
 *       deletion timeout) has passed since the deletion was first seen; then the objects are
 *       deleted anyway, and that is reported.
 *   <li>A dependent that is not being deleted is given {@code settle} to be deleted as well (the
 *       Kustomizations of a namespace, or of one {@code kubectl delete}, are marked one after the
 *       other); then it is not waited for, and that is reported.
 *   <li>Kustomizations being deleted that depend on each other in a circle do not wait for each
 *       other; the cycle is reported.
 * </ul>
 *
 * Which Kustomizations a Kustomization depends on is the caller's to say (the engine's reference
 * rules leave out a dependsOn they refuse), and the messages name at most {@value #NAMED}
 * dependents: there may be any number of them.
 */
public final class DeletionOrder {
  /** How many dependents a message names; the others are counted. */
  static final int NAMED = 10;

  /** What a Kustomization being deleted does now. */
  public enum Kind {
    /** Delete its objects. */
    PROCEED,
    /** Not yet: dependents are still there. */
    WAIT
  }

  /**
   * @param message what to tell the user; empty when there is nothing to say
   * @param warning the order could not be kept (a dependent stays, was still there when the bound
   *     passed, or is in a cycle with this one)
   */
  public record Verdict(Kind kind, String message, boolean warning) {
    public boolean waits() {
      return kind == Kind.WAIT;
    }
  }

  private final NamespacedName self;
  private final Set<NamespacedName> waitedFor;
  private final Set<NamespacedName> staying;
  private final Optional<List<NamespacedName>> cycle;

  private DeletionOrder(
      NamespacedName self,
      Set<NamespacedName> waitedFor,
      Set<NamespacedName> staying,
      Optional<List<NamespacedName>> cycle) {
    this.self = self;
    this.waitedFor = waitedFor;
    this.staying = staying;
    this.cycle = cycle;
  }

  /**
   * The order of {@code self} among {@code all} (the Kustomizations the engine sees), each
   * depending on the Kustomizations {@code dependsOn} gives for it.
   */
  public static DeletionOrder of(
      NamespacedName self,
      Collection<Kustomization> all,
      Function<Kustomization, List<NamespacedName>> dependsOn) {
    Map<NamespacedName, List<NamespacedName>> edges = new HashMap<>();
    Set<NamespacedName> deleting = new TreeSet<>();
    for (Kustomization ks : all) {
      NamespacedName key = NamespacedName.of(ks);
      edges.put(key, dependsOn.apply(ks));
      if (ks.getMetadata().getDeletionTimestamp() != null) {
        deleting.add(key);
      }
    }
    deleting.add(self);
    Map<NamespacedName, List<NamespacedName>> amongDeleting =
        edges.entrySet().stream()
            .filter(e -> deleting.contains(e.getKey()))
            .collect(
                Collectors.toMap(
                    Map.Entry::getKey,
                    e -> e.getValue().stream().filter(deleting::contains).toList()));
    Optional<List<NamespacedName>> cycle = new DependencyGraph<>(amongDeleting).cycleThrough(self);
    Set<NamespacedName> dependents = dependentsOf(self, edges);
    Set<NamespacedName> waitedFor = new TreeSet<>(dependents);
    waitedFor.retainAll(deleting);
    waitedFor.removeAll(cycle.orElse(List.of()));
    Set<NamespacedName> staying = new TreeSet<>(dependents);
    staying.removeAll(deleting);
    return new DeletionOrder(self, waitedFor, staying, cycle);
  }

  /** The dependents being deleted that this one waits for. */
  public Set<NamespacedName> waitedFor() {
    return waitedFor;
  }

  /**
   * The verdict, given how long the engine has seen this Kustomization being deleted ({@code
   * seenFor}), how long a dependent not being deleted is given to be ({@code settle}) and how long
   * dependents being deleted are waited for at most ({@code bound}).
   */
  public Verdict verdict(Duration seenFor, Duration settle, Duration bound) {
    if (!waitedFor.isEmpty()) {
      if (seenFor.compareTo(bound) < 0) {
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
              + " still being deleted after its timeout of "
              + bound.toSeconds()
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

  /** The first {@value #NAMED} of {@code keys}, and how many more there are. */
  private static String names(Set<NamespacedName> keys) {
    String named =
        keys.stream().limit(NAMED).map(NamespacedName::toString).collect(Collectors.joining(", "));
    return keys.size() <= NAMED ? named : named + " and " + (keys.size() - NAMED) + " more";
  }

  @Override
  public String toString() {
    return "DeletionOrder[" + self + " waits for " + waitedFor + "]";
  }
}
