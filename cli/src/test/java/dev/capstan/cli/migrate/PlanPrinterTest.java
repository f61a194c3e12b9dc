package dev.capstan.cli.migrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

class PlanPrinterTest {

  @Test
  void printsEachObjectWhatBecomesOfItItsDifferencesAndStepsThenTheCounts() {
    StringWriter text = new StringWriter();
    MigrationPlan plan = Planner.migration(MigrationFixtures.load("flux-cluster.yaml"), List.of());

    new PlanPrinter(new PrintWriter(text)).print(plan);

    List<String> lines = text.toString().lines().toList();
    assertEquals(
        "Kustomization flux-system/apps: migrated to its Capstan twin",
        lines.get(lines.size() - 5));
    assertEquals(
        "  rewritten spec.sourceRef.apiVersion: becomes source.capstan.dev/v1",
        lines.get(lines.size() - 3));
    assertEquals(
        "  steps: suspend the Flux object; create the Capstan twin; hand the inventory and the"
            + " applied objects' fields from kustomize-controller to Capstan; resume the twin;"
            + " wait until the twin is Ready; delete the Flux object with its finalizers removed,"
            + " so that Flux prunes nothing",
        lines.get(lines.size() - 2));
    assertTrue(
        lines.contains("HelmRelease podinfo/podinfo: migrated to its Capstan twin"),
        text::toString);
    assertEquals("7 objects: 6 migrate, 1 not migrated", lines.get(lines.size() - 1));
  }

  @Test
  void anEmptyClusterSaysSo() {
    StringWriter text = new StringWriter();
    new PlanPrinter(new PrintWriter(text)).print(new MigrationPlan(List.of(), false));
    assertEquals("no Flux object found in this cluster\n", text.toString());
  }
}
