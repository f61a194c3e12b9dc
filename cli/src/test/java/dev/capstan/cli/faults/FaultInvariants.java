package dev.capstan.cli.faults;

import dev.capstan.cli.faults.FaultObservation.AppliedObject;
import dev.capstan.cli.faults.FaultObservation.Deletion;
import dev.capstan.cli.faults.FaultObservation.KustomizationState;
import dev.capstan.cli.faults.FaultObservation.ResourceUse;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The invariants a fault must not break, checked on one {@link FaultObservation}: converged (every
 * Kustomization Ready at its source's latest revision, or failed for its own reason), nothing lost
 * (every object of the revision applied with its content and in its inventory), nothing pruned by
 * mistake (no deletion of an object the repository still held when it was deleted), nothing left
 * behind (no object or inventory entry the revision no longer holds), and no leak (threads and
 * memory near their steady state). Pure: observations in, verdict out.
 */
public final class FaultInvariants {
  /** How many names a broken invariant lists before it says how many more there are. */
  private static final int NAMES_SHOWN = 3;

  private final Set<String> ownFailureReasons;
  private final double growth;
  private final int spareThreads;
  private final long spareKib;

  /**
   * @param ownFailureReasons the Ready reasons that a Kustomization failing on purpose may show
   * @param growth how many times its steady threads and memory the engine may use after a fault
   * @param spareThreads threads allowed above that
   * @param spareKib memory allowed above that
   */
  public FaultInvariants(
      Set<String> ownFailureReasons, double growth, int spareThreads, long spareKib) {
    this.ownFailureReasons = Set.copyOf(ownFailureReasons);
    this.growth = growth;
    this.spareThreads = spareThreads;
    this.spareKib = spareKib;
  }

  /** The bounds the bench and the tests use: a broken source's reasons, 1.5x plus a margin. */
  public static FaultInvariants standard() {
    return new FaultInvariants(Set.of("ArtifactFailed", "BuildFailed"), 1.5, 20, 64 * 1024);
  }

  /** The verdict: converged or not, and each invariant broken, in one line each. */
  public Verdict check(FaultObservation seen) {
    List<String> broken = new ArrayList<>();
    List<String> unconverged = unconverged(seen);
    if (!unconverged.isEmpty()) {
      broken.add("not converged: " + names(unconverged));
    }
    add(broken, "lost", lost(seen));
    add(broken, "pruned by mistake", prunedByMistake(seen));
    add(broken, "left behind", leftBehind(seen));
    add(broken, "orphaned inventory", orphanedInventory(seen));
    leak(seen.steady(), seen.now()).ifPresent(broken::add);
    return new Verdict(unconverged.isEmpty(), List.copyOf(broken));
  }

  private List<String> unconverged(FaultObservation seen) {
    List<String> names = new ArrayList<>();
    for (String name : new TreeSet<>(seen.expected().keySet())) {
      KustomizationState state = seen.kustomizations().get(name);
      boolean done =
          state != null
              && (seen.failing().contains(name)
                  ? "False".equals(state.ready()) && ownFailureReasons.contains(state.reason())
                  : "True".equals(state.ready())
                      && seen.revisionOf(name).equals(state.lastAppliedRevision()));
      if (!done) {
        names.add(name + describe(state));
      }
    }
    return names;
  }

  private static String describe(KustomizationState state) {
    return state == null
        ? " (missing)"
        : " (Ready="
            + state.ready()
            + " "
            + state.reason()
            + " at "
            + state.lastAppliedRevision()
            + ")";
  }

  private static List<String> lost(FaultObservation seen) {
    List<String> lost = new ArrayList<>();
    seen.expected()
        .forEach(
            (owner, objects) ->
                objects.forEach(
                    (name, value) -> {
                      AppliedObject applied = seen.cluster().get(name);
                      KustomizationState state = seen.kustomizations().get(owner);
                      if (applied == null) {
                        lost.add(name + " (missing)");
                      } else if (!Objects.equals(value, applied.value())) {
                        lost.add(name + " (" + applied.value() + " instead of " + value + ")");
                      } else if (state == null || !state.inventory().contains(name)) {
                        lost.add(name + " (not in " + owner + "'s inventory)");
                      }
                    }));
    lost.sort(null);
    return lost;
  }

  private static List<String> prunedByMistake(FaultObservation seen) {
    List<String> pruned = new ArrayList<>();
    for (Deletion deletion : seen.deletions()) {
      Instant removed = seen.removedAt().get(deletion.name());
      if (removed == null || removed.isAfter(deletion.at())) {
        pruned.add(deletion.name() + " at " + deletion.at());
      }
    }
    return pruned;
  }

  private static List<String> leftBehind(FaultObservation seen) {
    List<String> left = new ArrayList<>();
    seen.cluster()
        .forEach(
            (name, applied) -> {
              Map<String, String> held = seen.expected().get(applied.owner());
              if (held == null || !held.containsKey(name)) {
                left.add(name);
              }
            });
    left.sort(null);
    return left;
  }

  private static List<String> orphanedInventory(FaultObservation seen) {
    List<String> orphaned = new ArrayList<>();
    seen.kustomizations()
        .forEach(
            (owner, state) -> {
              Map<String, String> held = seen.expected().getOrDefault(owner, Map.of());
              state.inventory().stream()
                  .filter(name -> !held.containsKey(name))
                  .forEach(name -> orphaned.add(owner + "/" + name));
            });
    orphaned.sort(null);
    return orphaned;
  }

  private Optional<String> leak(ResourceUse steady, ResourceUse now) {
    if (steady == null || now == null) {
      return Optional.empty();
    }
    List<String> over = new ArrayList<>();
    if (now.threads() > steady.threads() * growth + spareThreads) {
      over.add(now.threads() + " threads (steady " + steady.threads() + ")");
    }
    if (now.rssKib() > steady.rssKib() * growth + spareKib) {
      over.add(now.rssKib() / 1024 + " MiB RSS (steady " + steady.rssKib() / 1024 + " MiB)");
    }
    return over.isEmpty() ? Optional.empty() : Optional.of("leak: " + String.join(", ", over));
  }

  private static void add(List<String> broken, String invariant, List<String> names) {
    if (!names.isEmpty()) {
      broken.add(invariant + ": " + names(names));
    }
  }

  private static String names(List<String> names) {
    String shown = String.join(", ", names.subList(0, Math.min(NAMES_SHOWN, names.size())));
    return names.size() <= NAMES_SHOWN
        ? shown
        : shown + " and " + (names.size() - NAMES_SHOWN) + " more";
  }

  /** Whether the workload converged, and each invariant broken (none: all held). */
  public record Verdict(boolean converged, List<String> broken) {
    public boolean held() {
      return broken.isEmpty();
    }
  }
}
