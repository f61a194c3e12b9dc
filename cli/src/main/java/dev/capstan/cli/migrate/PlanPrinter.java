package dev.capstan.cli.migrate;

import java.io.PrintWriter;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/** The plan as text: one paragraph an object, then a count per outcome. */
final class PlanPrinter {

  private final PrintWriter out;

  PlanPrinter(PrintWriter out) {
    this.out = out;
  }

  void print(MigrationPlan plan) {
    if (plan.objects().isEmpty()) {
      out.println(
          plan.rollback()
              ? "no Capstan object made by a migration: nothing to hand back"
              : "no Flux object found in this cluster");
      out.flush();
      return;
    }
    for (PlannedObject object : plan.objects()) {
      print(object);
    }
    Map<Outcome, Integer> counts = new EnumMap<>(Outcome.class);
    plan.objects().forEach(o -> counts.merge(o.outcome(), 1, Integer::sum));
    out.println(
        plan.objects().size()
            + " objects: "
            + counts.entrySet().stream()
                .map(
                    e ->
                        e.getValue()
                            + " "
                            + e.getKey().name().toLowerCase(Locale.ROOT).replace('_', ' '))
                .collect(Collectors.joining(", ")));
    out.flush();
  }

  private void print(PlannedObject object) {
    String reason = object.reason().isEmpty() ? "" : ": " + object.reason();
    out.println(object.title() + ": " + object.outcome().says + reason);
    for (Difference difference : object.differences()) {
      out.println("  " + difference);
    }
    if (!object.steps().isEmpty()) {
      out.println(
          "  steps: " + object.steps().stream().map(s -> s.says).collect(Collectors.joining("; ")));
    }
  }
}
