package dev.capstan.cli.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.cli.faults.FaultInvariants.Verdict;
import dev.capstan.cli.faults.FaultObservation.AppliedObject;
import dev.capstan.cli.faults.FaultObservation.Deletion;
import dev.capstan.cli.faults.FaultObservation.KustomizationState;
import dev.capstan.cli.faults.FaultObservation.ResourceUse;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FaultInvariantsTest {
  private static final String REV = "main@sha1:2222";
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private final FaultInvariants invariants = FaultInvariants.standard();

  /** k0 holds a and b, k1 holds c, k2 fails on purpose; all as they should be. */
  private final Map<String, Map<String, String>> expected =
      Map.of("k0", Map.of("a", "1", "b", "2"), "k1", Map.of("c", "3"), "k2", Map.of());

  private final Map<String, KustomizationState> states =
      new HashMap<>(
          Map.of(
              "k0", ready(Set.of("a", "b")),
              "k1", ready(Set.of("c")),
              "k2", new KustomizationState("False", "BuildFailed", null, Set.of())));
  private final Map<String, AppliedObject> cluster =
      new HashMap<>(
          Map.of(
              "a", new AppliedObject("k0", "1"),
              "b", new AppliedObject("k0", "2"),
              "c", new AppliedObject("k1", "3")));

  @Test
  void aConvergedWorkloadHoldsEveryInvariant() {
    Verdict verdict = check(List.of(), new ResourceUse(60, 200_000));
    assertEquals(List.of(), verdict.broken());
    assertTrue(verdict.converged());
  }

  @Test
  void aKustomizationAtAnOlderRevisionOrFailingForAnotherReasonHasNotConverged() {
    states.put(
        "k0",
        new KustomizationState(
            "True", "ReconciliationSucceeded", "main@sha1:1111", Set.of("a", "b")));
    states.put("k2", new KustomizationState("False", "HealthCheckFailed", null, Set.of()));
    states.remove("k1");
    Verdict verdict = check(List.of(), null);
    assertFalse(verdict.converged());
    assertEquals(
        List.of(
            "not converged: k0 (Ready=True ReconciliationSucceeded at main@sha1:1111),"
                + " k1 (missing), k2 (Ready=False HealthCheckFailed at null)",
            "lost: c (not in k1's inventory)"),
        verdict.broken());
  }

  @Test
  void aMissingObjectAnOldValueOrAnObjectOutOfItsInventoryIsLost() {
    cluster.remove("a");
    cluster.put("b", new AppliedObject("k0", "old"));
    states.put("k1", ready(Set.of()));
    assertEquals(
        List.of("lost: a (missing), b (old instead of 2), c (not in k1's inventory)"),
        check(List.of(), null).broken());
  }

  @Test
  void aDeletionBeforeTheRepositoryRemovedTheObjectIsAPruneByMistake() {
    List<Deletion> deletions =
        List.of(
            new Deletion("gone", T0.plusSeconds(5)),
            new Deletion("early", T0.plusSeconds(1)),
            new Deletion("a", T0.plusSeconds(3)));
    FaultObservation seen =
        observation(deletions, Map.of("gone", T0.plusSeconds(4), "early", T0.plusSeconds(2)), null);
    assertEquals(
        List.of("pruned by mistake: early at 2026-01-01T00:00:01Z, a at 2026-01-01T00:00:03Z"),
        invariants.check(seen).broken());
  }

  @Test
  void anObjectTheRevisionNoLongerHoldsIsLeftBehindAndSoIsItsInventoryEntry() {
    cluster.put("removed", new AppliedObject("k1", "9"));
    states.put("k1", ready(Set.of("c", "removed")));
    assertEquals(
        List.of("left behind: removed", "orphaned inventory: k1/removed"),
        check(List.of(), null).broken());
  }

  @Test
  void threadsOrMemoryWellAboveTheSteadyStateAreALeak() {
    FaultObservation seen =
        new FaultObservation(
            REV,
            expected,
            Set.of("k2"),
            states,
            cluster,
            Map.of(),
            List.of(),
            new ResourceUse(60, 200_000),
            new ResourceUse(111, 400_000));
    assertEquals(
        List.of("leak: 111 threads (steady 60), 390 MiB RSS (steady 195 MiB)"),
        invariants.check(seen).broken());
    assertEquals(List.of(), check(List.of(), new ResourceUse(110, 365_536)).broken());
  }

  @Test
  void aKustomizationOfAnotherSourceConvergesToThatSourcesRevision() {
    String artifact = "live@sha256:" + "3".repeat(64);
    Map<String, Map<String, String>> both = new HashMap<>(expected);
    both.put("o0", Map.of("d", "4"));
    cluster.put("d", new AppliedObject("o0", "4"));
    states.put("o0", ready(Set.of("d")));
    FaultObservation atGitRevision =
        new FaultObservation(
            REV,
            Map.of("o0", artifact),
            both,
            Set.of("k2"),
            states,
            cluster,
            Map.of(),
            List.of(),
            null,
            null);
    assertEquals(
        List.of("not converged: o0 (Ready=True ReconciliationSucceeded at " + REV + ")"),
        invariants.check(atGitRevision).broken());

    states.put(
        "o0", new KustomizationState("True", "ReconciliationSucceeded", artifact, Set.of("d")));
    assertEquals(List.of(), invariants.check(atGitRevision).broken());
  }

  @Test
  void betweenRoundsNoLeakIsChecked() {
    FaultObservation seen =
        new FaultObservation(
            REV, expected, Set.of("k2"), states, cluster, Map.of(), List.of(), null, null);
    assertEquals(List.of(), invariants.check(seen).broken());
  }

  @Test
  void theSteadyStateIsTheHigherThreadsAndTheHigherMemoryOfItsSamples() {
    assertEquals(
        new ResourceUse(80, 300_000),
        new ResourceUse(80, 200_000).atLeast(new ResourceUse(60, 300_000)));
  }

  @Test
  void aLongListNamesThreeAndCountsTheRest() {
    cluster.clear();
    states.put("k0", ready(Set.of("a", "b")));
    Map<String, Map<String, String>> many =
        Map.of("k0", Map.of("a", "1", "b", "2", "d", "4", "e", "5", "f", "6"));
    FaultObservation seen =
        new FaultObservation(REV, many, Set.of(), states, cluster, Map.of(), List.of(), null, null);
    assertTrue(
        invariants
            .check(seen)
            .broken()
            .contains("lost: a (missing), b (missing), d (missing) and 2 more"));
  }

  private Verdict check(List<Deletion> deletions, ResourceUse now) {
    return invariants.check(observation(deletions, Map.of(), now));
  }

  private FaultObservation observation(
      List<Deletion> deletions, Map<String, Instant> removedAt, ResourceUse now) {
    return new FaultObservation(
        REV,
        expected,
        Set.of("k2"),
        states,
        cluster,
        removedAt,
        deletions,
        new ResourceUse(60, 200_000),
        now);
  }

  private static KustomizationState ready(Set<String> inventory) {
    return new KustomizationState("True", "ReconciliationSucceeded", REV, inventory);
  }
}
