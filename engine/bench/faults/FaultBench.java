import dev.capstan.cli.faults.ControlPlane;
import dev.capstan.cli.faults.Fault;
import dev.capstan.cli.faults.FaultCluster;
import dev.capstan.cli.faults.FaultCluster.Outcome;
import dev.capstan.cli.faults.FaultRounds;
import dev.capstan.cli.faults.FaultWorkload;
import dev.capstan.cli.faults.RegistrySide;
import dev.capstan.testing.CapstanCrds;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * The fault bench (engine/bench/faults/faults.sh): the workload of {@link FaultWorkload} at N
 * Kustomizations (and, if a registry fault is named, the {@link RegistrySide}'s max(2, N/10)) in a
 * namespace of its own, the engine as a separate process, each fault injected ROUNDS times at
 * seeded random moments with a commit (with a registry side, every third a push to the registry)
 * every 3 s meanwhile, and the invariants of {@code FaultInvariants} after each. Arguments: N,
 * faults (comma-separated labels or all), ROUNDS, SEED.
 */
public class FaultBench {
  /** Time to converge after a fault ends before the round counts as broken. */
  static final Duration LIMIT = Duration.ofMinutes(5);

  /** How long the engine works after its first convergence before its steady state is taken. */
  static final Duration WARM_UP = Duration.ofSeconds(30);

  public static void main(String[] args) throws Exception {
    int count = Integer.parseInt(args[0]);
    List<Fault> faults =
        args[1].equals("all")
            ? Fault.all()
            : Arrays.stream(args[1].split(",")).map(Fault::named).toList();
    Fault.checkRun(faults);
    int rounds = Integer.parseInt(args[2]);
    long seed = Long.parseLong(args[3]);
    Path kubeconfig = Path.of(System.getenv("KUBECONFIG"));
    ControlPlane plane = new ControlPlane(kubeconfig);
    if (!plane.isLocal() && faults.stream().anyMatch(Fault::touchesControlPlane)) {
      throw new IllegalStateException(kubeconfig + " is not the local control plane's");
    }
    System.out.printf(
        "faults %s, %d Kustomizations, %d rounds, seed %d%n", faults, count, rounds, seed);
    Random random = new Random(seed);
    Path dir = Files.createTempDirectory("capstan-faults");
    // The seed and the time: a run of the same seed right after another must not meet the
    // namespace the last one is still deleting.
    String ns =
        "faults-"
            + Long.toString(seed & 0xffffffL, 36)
            + "-"
            + Long.toString(System.currentTimeMillis() / 1000 % 46_656, 36);
    try (KubernetesClient admin = new KubernetesClientBuilder().build()) {
      CapstanCrds.install(admin);
      admin
          .namespaces()
          .resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
          .create();
      try (FaultWorkload workload = new FaultWorkload(dir.resolve("repo"), count, random);
          // Only a run that names a registry fault has the registry side (a null is not closed).
          RegistrySide registry =
              Fault.needRegistry(faults)
                  ? RegistrySide.start(
                      admin,
                      ns,
                      dir.resolve("registry-side"),
                      RegistrySide.countFor(count),
                      random,
                      Clock.systemUTC())
                  : null;
          FaultCluster cluster =
              new FaultCluster(
                  admin, ns, kubeconfig, dir, workload, registry, List.of("-Xmx256m"));
          FaultRounds bench = new FaultRounds(cluster, plane, random, LIMIT, System.out)) {
        if (Fault.needStandby(faults)) {
          cluster.withStandby(); // two engines electing a leader
        }
        if (faults.contains(Fault.DISK_FULL)) {
          // each engine's artifact store on a tmpfs of its own, to be filled (needs root)
          cluster.artifactsOnDisksOf(64L << 20);
        }
        long start = System.nanoTime();
        cluster.start();
        Outcome first = cluster.awaitInvariants(Duration.ofMinutes(15));
        System.out.printf(
            "first convergence: %s in %.1f s (%s)%n",
            first.verdict().held() ? "held" : "broken",
            (System.nanoTime() - start) / 1e9,
            String.join("; ", first.verdict().broken()));
        if (!first.verdict().held()) {
          System.out.println("RESULT 0/" + faults.size() + " held (no first convergence)");
          return;
        }
        bench.streamCommits(Duration.ofSeconds(3));
        System.out.println(
            "steady state: "
                + cluster.markSteady(WARM_UP)
                + "; engine log "
                + cluster.engine().log());
        List<String> rows = new ArrayList<>();
        int held = 0;
        for (Fault fault : faults) {
          List<Outcome> outcomes = new ArrayList<>();
          for (int round = 1; round <= rounds; round++) {
            outcomes.add(bench.round(fault, round));
          }
          String row = FaultRounds.row(fault, outcomes);
          held += row.contains(": held ") ? 1 : 0;
          rows.add(row);
          System.out.println(row);
        }
        Outcome end = bench.finish();
        System.out.printf(
            "%n%d commits in all; final %s%n", workload.commits(), cluster.resourceUse());
        rows.forEach(System.out::println);
        System.out.println(
            "END OF RUN: " + (end.verdict().held() ? "held" : "broken " + end.verdict().broken()));
        System.out.println("RESULT " + held + "/" + faults.size() + " held");
      } finally {
        admin.namespaces().withName(ns).delete();
      }
    }
  }
}
