package dev.capstan.health;

import dev.capstan.health.status.ResourceStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Agreement of evaluated fixture examples with their expected status, per kind and overall. */
final class ConformanceTally {

  /**
   * One evaluated example.
   *
   * @param knownDifference why Capstan deliberately answers otherwise for this example, or null
   */
  record Outcome(
      String id,
      String kindKey,
      boolean covered,
      String expected,
      ResourceStatus actual,
      String knownDifference) {
    boolean agrees() {
      return actual.status().name().equals(expected);
    }
  }

  /** Counts for one apiVersion-group/kind. */
  static final class KindRow {
    int total;
    int agree;
    int known;
    boolean covered;
  }

  private final List<Outcome> outcomes = new ArrayList<>();
  private final Map<String, KindRow> rows = new TreeMap<>();

  void add(Outcome outcome) {
    outcomes.add(outcome);
    KindRow row = rows.computeIfAbsent(outcome.kindKey(), k -> new KindRow());
    row.total++;
    row.covered |= outcome.covered();
    if (outcome.agrees()) {
      row.agree++;
    } else if (outcome.knownDifference() != null) {
      row.known++;
    }
  }

  List<Outcome> outcomes() {
    return List.copyOf(outcomes);
  }

  int total() {
    return outcomes.size();
  }

  int agreeing() {
    return (int) outcomes.stream().filter(Outcome::agrees).count();
  }

  /** Raw agreement over every example, known differences and uncovered kinds included. */
  double agreement() {
    return outcomes.isEmpty() ? 0 : (double) agreeing() / outcomes.size();
  }

  /** Examples of covered kinds that disagree without being a listed, known difference. */
  List<Outcome> coveredDisagreements() {
    return outcomes.stream()
        .filter(o -> o.covered() && !o.agrees() && o.knownDifference() == null)
        .toList();
  }

  /** Listed known differences that disagree, as listed. */
  List<Outcome> knownDifferences() {
    return outcomes.stream().filter(o -> !o.agrees() && o.knownDifference() != null).toList();
  }

  /** Listed known differences that agree after all: the list is stale. */
  List<Outcome> staleKnownDifferences() {
    return outcomes.stream().filter(o -> o.agrees() && o.knownDifference() != null).toList();
  }

  int coveredKinds() {
    return (int) rows.values().stream().filter(r -> r.covered).count();
  }

  /** A plain-text table: kind, covered, agreeing/total, known differences. */
  String table() {
    StringBuilder out = new StringBuilder();
    out.append(String.format("%-70s %-8s %9s %7s%n", "group/kind", "library", "agree", "known"));
    rows.forEach(
        (kind, row) ->
            out.append(
                String.format(
                    "%-70s %-8s %4d/%-4d %7s%n",
                    kind,
                    row.covered ? "yes" : "-",
                    row.agree,
                    row.total,
                    row.known == 0 ? "" : String.valueOf(row.known))));
    return out.toString();
  }
}
