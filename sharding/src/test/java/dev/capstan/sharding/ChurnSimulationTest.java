package dev.capstan.sharding;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * 100,000 Kustomizations over 30 replicas with churn (joins, deaths, a rolling upgrade,
 * Kustomizations coming and going): every event leaves the load within 1.15 of the mean, and a join
 * or a death moves little more than the share of the replica that came or went. The figures are
 * written to target/sharding-simulation.md (docs/sharding.md quotes them).
 */
class ChurnSimulationTest {
  private static final double MAX_SPREAD = 1.15;

  @Test
  void uidKeysStayBalancedAndMoveLittleUnderChurn() throws IOException {
    ChurnSimulation simulation = new ChurnSimulation(new Balancer(1.05), SlotSpace.DEFAULT, 42);
    simulation.addByUid(100_000);
    churn(simulation);

    check(simulation.events());
    report("uid", simulation.events());
  }

  @Test
  void namespaceKeysStayBalancedWhenNoTenantOutweighsAShare() throws IOException {
    ChurnSimulation simulation = new ChurnSimulation(new Balancer(1.05), SlotSpace.DEFAULT, 7);
    simulation.addByNamespace(5_000, 39);
    churn(simulation);

    check(simulation.events());
    report("namespace", simulation.events());
  }

  private static void churn(ChurnSimulation simulation) {
    simulation.start(30);
    for (int i = 0; i < 3; i++) {
      simulation.join();
      simulation.drift(0.005);
      simulation.die();
    }
    simulation.rollingUpgrade();
    simulation.drift(0.01);
  }

  private static void check(List<ChurnSimulation.Event> events) {
    for (ChurnSimulation.Event e : events) {
      assertTrue(e.spread() <= MAX_SPREAD, e.toString());
      double share = 1.0 / e.replicas();
      if (e.what().equals("join") || e.what().equals("upgrade: new pod")) {
        assertTrue(e.loadMoved() <= share * 1.5, e.toString());
      }
      if (e.what().equals("die") || e.what().equals("upgrade: old pod gone")) {
        // the dead replica's share, measured on the replicas before it died
        assertTrue(e.loadMoved() <= 1.5 / (e.replicas() + 1), e.toString());
      }
    }
  }

  private static void report(String key, List<ChurnSimulation.Event> events) throws IOException {
    List<String> lines = new ArrayList<>();
    lines.add("| event (" + key + " keys) | replicas | max/mean | load moved | moved | ranges |");
    lines.add("|---|---|---|---|---|---|");
    double worstSpread = 0;
    for (ChurnSimulation.Event e : events) {
      worstSpread = Math.max(worstSpread, e.spread());
      lines.add(
          String.format(
              "| %s | %d | %.3f | %.1f%% | %d | %d |",
              e.what(),
              e.replicas(),
              e.spread(),
              e.loadMoved() * 100,
              e.kustomizationsMoved(),
              e.maxRanges()));
    }
    lines.add(String.format("%nworst max/mean: %.3f over %d events%n", worstSpread, events.size()));
    Path out = Path.of("target", "sharding-simulation-" + key + ".md");
    Files.createDirectories(out.getParent());
    Files.write(out, lines);
  }
}
