package dev.capstan.cli.faults;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.cli.faults.FaultCluster.Outcome;
import dev.capstan.testing.ClusterAccess;
import dev.capstan.testing.TestNamespace;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.Consumer;

/**
 * A fault integration test's run: the bench's workload at a small size (six Kustomizations: a chain
 * of five and one failing on purpose; and the registry side's two, only if a registry fault is
 * named, {@link Fault#needRegistry}) in the test's namespace, its engine (and a standby, {@link
 * Fault#needStandby}), and rounds of a fault, each asserted through {@link FaultInvariants}, and
 * the leak check at the end. The seed is printed and can be set with {@code -Dcapstan.faults.seed}.
 */
final class FaultTestRun implements AutoCloseable {
  static final int KUSTOMIZATIONS = 6;
  private static final Duration LIMIT = Duration.ofSeconds(90);
  private static final Duration WARM_UP = Duration.ofSeconds(15);
  private final long seed;
  private final FaultWorkload workload;
  private final RegistrySide registry;
  private final FaultCluster cluster;
  private final FaultRounds rounds;

  private FaultTestRun(
      long seed,
      FaultWorkload workload,
      RegistrySide registry,
      FaultCluster cluster,
      FaultRounds rounds) {
    this.seed = seed;
    this.workload = workload;
    this.registry = registry;
    this.cluster = cluster;
    this.rounds = rounds;
  }

  /** Sets up the workload, starts the engine and waits until it first converged. */
  static FaultTestRun start(
      KubernetesClient admin, TestNamespace ns, ClusterAccess access, Path dir) throws Exception {
    return start(admin, ns, access, dir, Set.of(), cluster -> {});
  }

  /** The same for a run of {@code faults}, with the registry side if one of them needs it. */
  static FaultTestRun start(
      KubernetesClient admin, TestNamespace ns, ClusterAccess access, Path dir, Set<Fault> faults)
      throws Exception {
    return start(admin, ns, access, dir, faults, cluster -> {});
  }

  /** The same, {@code setUp} given the cluster before it starts. */
  static FaultTestRun start(
      KubernetesClient admin,
      TestNamespace ns,
      ClusterAccess access,
      Path dir,
      Consumer<FaultCluster> setUp)
      throws Exception {
    return start(admin, ns, access, dir, Set.of(), setUp);
  }

  private static FaultTestRun start(
      KubernetesClient admin,
      TestNamespace ns,
      ClusterAccess access,
      Path dir,
      Set<Fault> faults,
      Consumer<FaultCluster> setUp)
      throws Exception {
    Fault.checkRun(faults);
    long seed = Long.getLong("capstan.faults.seed", System.nanoTime());
    System.out.println("fault test seed " + seed);
    Random random = new Random(seed);
    FaultWorkload workload = new FaultWorkload(dir.resolve("repo"), KUSTOMIZATIONS, random);
    RegistrySide registry = null;
    FaultCluster cluster;
    try {
      if (Fault.needRegistry(faults)) {
        registry =
            RegistrySide.start(
                admin,
                ns.name(),
                dir.resolve("registry-side"),
                RegistrySide.countFor(KUSTOMIZATIONS),
                random,
                Clock.systemUTC());
      }
      cluster =
          new FaultCluster(
              admin, ns.name(), access.kubeconfig(), dir, workload, registry, List.of("-Xmx256m"));
    } catch (Exception e) {
      // Nested so that a failing close of the workload still closes the registry.
      try {
        workload.close();
      } finally {
        if (registry != null) {
          registry.close();
        }
      }
      throw e;
    }
    FaultTestRun run =
        new FaultTestRun(
            seed,
            workload,
            registry,
            cluster,
            new FaultRounds(
                cluster, new ControlPlane(access.kubeconfig()), random, LIMIT, System.out));
    try {
      if (Fault.needStandby(faults)) {
        cluster.withStandby();
      }
      setUp.accept(cluster);
      cluster.start();
      Outcome first = cluster.awaitInvariants(LIMIT);
      run.assertHeld("the first convergence", first);
      run.rounds.streamCommits(Duration.ofSeconds(4));
      cluster.markSteady(WARM_UP);
      return run;
    } catch (Exception | AssertionError e) {
      run.close();
      throw e;
    }
  }

  /** {@code times} rounds of {@code fault}, each of which must hold every invariant. */
  void assertHolds(Fault fault, int times) throws Exception {
    for (int round = 1; round <= times; round++) {
      assertHeld(fault.label() + " round " + round, rounds.round(fault, round));
    }
  }

  /**
   * The end of the run: every invariant holds, and the engine's threads and memory did not leak.
   */
  void assertHoldsAtTheEnd() throws Exception {
    assertHeld("the end of the run", rounds.finish());
  }

  /** One more commit after the faults, which must be applied with every invariant holding. */
  void assertAChangeConverges() throws Exception {
    assertHeld("a change after the faults", rounds.change());
  }

  /** The running engine's process id. */
  long enginePid() {
    return cluster.engine().pid();
  }

  private void assertHeld(String what, Outcome outcome) {
    assertTrue(
        outcome.verdict().held(),
        () ->
            what
                + " (seed "
                + seed
                + "): "
                + String.join("\n", outcome.verdict().broken())
                + "\nthe engine's log:\n"
                + cluster.engine().logTail());
  }

  @Override
  public void close() throws Exception {
    // Nested so that whatever one close throws, the engines and the servers still go.
    try {
      try {
        rounds.close();
      } finally {
        cluster.close();
      }
    } finally {
      try {
        workload.close();
      } finally {
        if (registry != null) {
          registry.close();
        }
      }
    }
  }
}
