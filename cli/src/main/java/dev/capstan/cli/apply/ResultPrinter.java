package dev.capstan.cli.apply;

import dev.capstan.applier.common.Action;
import dev.capstan.applier.common.ObjectResult;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Progress lines as results arrive, and a summary table of outcomes per kind. */
public final class ResultPrinter {

  private final PrintWriter out;

  public ResultPrinter(PrintWriter out) {
    this.out = out;
  }

  public synchronized void progress(ObjectResult result) {
    // Plain concatenation, not a format string: a thousand formatted lines cost a short-lived
    // command a noticeable share of its time.
    StringBuilder line = new StringBuilder(96).append(result.action().label());
    while (line.length() < 10) {
      line.append(' ');
    }
    line.append(' ').append(result.ref());
    if (!result.reason().isEmpty()) {
      line.append(": ").append(result.reason());
    }
    out.println(line);
    out.flush();
  }

  public synchronized void line(String text) {
    out.println(text);
    out.flush();
  }

  /** One row per kind with a column per action that occurred, then a total row. */
  public void summary(List<ObjectResult> results) {
    Map<String, Map<Action, Integer>> byKind = new TreeMap<>();
    Map<Action, Integer> totals = new EnumMap<>(Action.class);
    for (ObjectResult r : results) {
      byKind
          .computeIfAbsent(r.ref().kind(), k -> new EnumMap<>(Action.class))
          .merge(r.action(), 1, Integer::sum);
      totals.merge(r.action(), 1, Integer::sum);
    }
    List<Action> columns = new ArrayList<>(totals.keySet());
    StringBuilder header = new StringBuilder(String.format("%-28s", "KIND"));
    columns.forEach(a -> header.append(String.format("%12s", a.name())));
    out.println();
    out.println(header);
    byKind.forEach((kind, counts) -> out.println(row(kind, counts, columns)));
    out.println(row("TOTAL", totals, columns));
    out.flush();
  }

  private static String row(String label, Map<Action, Integer> counts, List<Action> columns) {
    StringBuilder row = new StringBuilder(String.format("%-28s", label));
    columns.forEach(a -> row.append(String.format("%12d", counts.getOrDefault(a, 0))));
    return row.toString();
  }
}
