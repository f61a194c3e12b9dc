package dev.capstan.health;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Agreement of evaluated fixture examples with their expected status, per kind and overall. */
final class ConformanceTally {

  /** One evaluated example. */
  record Outcome(String id, String kindKey, boolean covered, String expected, ResourceStatus actual, boolean exempt) {
    boolean agrees() {
      return actual.status().name().equals(expected);
    }
  }

  /** Counts for one apiVersion-group/kind. */
  static final class KindRow {
    int total;
    int agree;
    int exempt;
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
    } else if (outcome.exempt()) {
      row.exempt++;
    }
  }

  int total() {
    return outcomes.size();
  }

  int agreeing() {
    return (int) outcomes.stream().filter(Outcome::agrees).count();
  }

  double agreement() {
    return outcomes.isEmpty() ? 0 : (double) agreeing() / outcomes.size();
  }

  /** Agreement leaving out the examples a rule outside the library decided. */
  double decidedAgreement() {
    int decided = outcomes.size() - exempted().size();
    return decided == 0 ? 0 : (double) agreeing() / decided;
  }

  /** Examples of covered kinds that disagree and are not explained by a rule outside the library. */
  List<Outcome> coveredDisagreements() {
    return outcomes.stream().filter(o -> o.covered() && !o.agrees() && !o.exempt()).toList();
  }

  List<Outcome> exempted() {
    return outcomes.stream().filter(o -> !o.agrees() && o.exempt()).toList();
  }

  int coveredKinds() {
    return (int) rows.values().stream().filter(r -> r.covered).count();
  }

  /** A plain-text table: kind, covered, agreeing/total, exempted. */
  String table() {
    StringBuilder out = new StringBuilder();
    out.append(String.format("%-70s %-8s %9s %7s%n", "group/kind", "library", "agree", "exempt"));
    rows.forEach(
        (kind, row) ->
            out.append(
                String.format(
                    "%-70s %-8s %4d/%-4d %7s%n",
                    kind,
                    row.covered ? "yes" : "-",
                    row.agree,
                    row.total,
                    row.exempt == 0 ? "" : String.valueOf(row.exempt))));
    return out.toString();
  }
}
