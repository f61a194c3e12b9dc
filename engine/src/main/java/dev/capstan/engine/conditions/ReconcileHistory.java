package dev.capstan.engine.conditions;

import dev.capstan.api.common.GoDuration;
import dev.capstan.api.common.Snapshot;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A Kustomization's {@code status.history}, kept as Flux keeps it: most recent first, one entry per
 * applied set (digest) and outcome, counted, at most {@link #MAX_ENTRIES} entries. Pure.
 */
public final class ReconcileHistory {
  /** Entries kept; older ones are dropped (Flux's bound). */
  public static final int MAX_ENTRIES = 5;

  private ReconcileHistory() {}

  /**
   * The history after one more reconcile: the entry of the same digest and outcome is counted and
   * moved to the front, or a new one leads; beyond {@link #MAX_ENTRIES} the oldest go.
   *
   * @param outcome how the reconcile ended (a Ready reason, e.g. ReconciliationSucceeded)
   */
  public static List<Snapshot> record(
      List<Snapshot> history,
      String digest,
      String outcome,
      Instant ended,
      Duration took,
      Map<String, String> metadata) {
    Objects.requireNonNull(digest, "digest");
    Objects.requireNonNull(outcome, "outcome");
    String when = ended.truncatedTo(ChronoUnit.SECONDS).toString();
    String duration = GoDuration.format(took.isNegative() ? Duration.ZERO : took);
    List<Snapshot> previous = history == null ? List.of() : history;
    List<Snapshot> next = new ArrayList<>(previous.size() + 1);
    Snapshot same =
        previous.stream()
            .filter(s -> digest.equals(s.digest()) && outcome.equals(s.lastReconciledStatus()))
            .findFirst()
            .orElse(null);
    if (same == null) {
      next.add(new Snapshot(digest, when, when, duration, outcome, 1L, Map.copyOf(metadata)));
    } else {
      long count = same.totalReconciliations() == null ? 1 : same.totalReconciliations() + 1;
      next.add(
          new Snapshot(
              digest,
              same.firstReconciled() == null ? when : same.firstReconciled(),
              when,
              duration,
              outcome,
              count,
              Map.copyOf(metadata)));
    }
    for (Snapshot s : previous) {
      if (s != same && next.size() < MAX_ENTRIES) {
        next.add(s);
      }
    }
    return List.copyOf(next);
  }
}
