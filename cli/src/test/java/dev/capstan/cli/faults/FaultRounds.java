package dev.capstan.cli.faults;

import dev.capstan.cli.faults.FaultCluster.Outcome;
import dev.capstan.cli.faults.FaultInvariants.Verdict;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * Injects faults into a running {@link FaultCluster}, one round at a time: a commit and a fetch
 * request, a seeded random wait so the fault lands while reconciles run, the fault, then the wait
 * until every invariant holds again. A stream of commits runs meanwhile, paused while the bench
 * waits for convergence (the latest revision must hold still to converge to). After a kill the new
 * engine's steady state is taken anew; the leak is checked once, at the end ({@link #finish}).
 */
public final class FaultRounds implements AutoCloseable {
  private final FaultCluster cluster;
  private final ControlPlane plane;
  private final Random random;
  private final Duration limit;
  private final PrintStream out;
  private final Object streamLock = new Object();
  private Thread stream;
  private volatile boolean streaming;
  private volatile boolean closed;

  public FaultRounds(
      FaultCluster cluster, ControlPlane plane, Random random, Duration limit, PrintStream out) {
    this.cluster = cluster;
    this.plane = plane;
    this.random = random;
    this.limit = limit;
    this.out = out;
  }

  /**
   * Starts the stream of changes, one every {@code period} while not paused: if the run has a
   * registry side, every third a new artifact pushed to it; the others commits to the Git
   * repository; each followed by its source's fetch request.
   */
  public void streamCommits(Duration period) {
    streaming = true;
    stream =
        new Thread(
            () -> {
              long tick = 0;
              while (!closed) {
                try {
                  Thread.sleep(period.toMillis());
                  synchronized (streamLock) {
                    if (streaming && !closed) {
                      if (++tick % 3 == 0 && cluster.hasRegistry()) {
                        cluster.registry().pushChange();
                        cluster.registry().requestFetch();
                      } else {
                        cluster.workload().commitChange();
                        cluster.requestFetch();
                      }
                    }
                  }
                } catch (InterruptedException e) {
                  return;
                } catch (Exception e) {
                  out.println("  the commit stream failed once: " + e);
                }
              }
            },
            "commit-stream");
    stream.setDaemon(true);
    stream.start();
  }

  /** One round of {@code fault}; prints and returns its outcome. */
  public Outcome round(Fault fault, int round) throws Exception {
    cluster.workload().commitChange();
    cluster.requestFetch();
    long wait = 200 + random.nextInt(1800);
    Thread.sleep(wait);
    Injected injected = inject(fault);
    String notInjected = injected.failure();
    pauseStream(true);
    try {
      Outcome outcome = cluster.awaitInvariants(limit);
      if (notInjected != null) {
        List<String> broken = new ArrayList<>(outcome.verdict().broken());
        broken.add(0, notInjected);
        outcome = new Outcome(new Verdict(false, broken), outcome.seconds());
      }
      out.printf(
          "  %s round %d (after %d ms%s): %s in %.1f s%s%n",
          fault.label(),
          round,
          wait,
          injected.landed() == null ? "" : "; " + injected.landed(),
          outcome.verdict().held() ? "held" : "broken",
          outcome.seconds(),
          outcome.verdict().held() ? "" : ": " + String.join("; ", outcome.verdict().broken()));
      return outcome;
    } finally {
      pauseStream(false);
      cluster.rebaselineIfRestarted();
    }
  }

  /**
   * The end of a run: the stream paused, every invariant again, and the engine's threads and memory
   * back near their steady state (the leak is checked only here).
   */
  public Outcome finish() throws Exception {
    pauseStream(true);
    Outcome outcome = cluster.awaitInvariantsAtTheEnd(limit);
    out.printf(
        "  the end of the run: %s in %.1f s%s%n",
        outcome.verdict().held() ? "held" : "broken",
        outcome.seconds(),
        outcome.verdict().held() ? "" : ": " + String.join("; ", outcome.verdict().broken()));
    return outcome;
  }

  /** A commit and its fetch request with the stream paused, then the wait for every invariant. */
  public Outcome change() throws Exception {
    pauseStream(true);
    cluster.workload().commitChange();
    cluster.requestFetch();
    return cluster.awaitInvariants(limit);
  }

  /**
   * Where a fault landed (null: nothing to say), or why it could not be injected or what it broke
   * as it ran (null: neither).
   */
  private record Injected(String landed, String failure) {}

  private Injected inject(Fault fault) throws InterruptedException {
    try {
      return new Injected(fault.injectAndSay(cluster, plane, random), null);
    } catch (InterruptedException e) {
      throw e;
    } catch (FaultBroke e) {
      return new Injected(null, e.getMessage());
    } catch (Exception e) {
      return new Injected(null, "not injected: " + e.getMessage());
    }
  }

  private void pauseStream(boolean pause) {
    synchronized (streamLock) {
      streaming = stream != null && !pause;
    }
  }

  /** The table's row: {@code FAULT <name>: held|broken <median>/<max> s <what broke>}. */
  public static String row(Fault fault, List<Outcome> outcomes) {
    List<Double> seconds =
        outcomes.stream().map(Outcome::seconds).sorted(Comparator.naturalOrder()).toList();
    Set<String> broken = new LinkedHashSet<>();
    outcomes.forEach(o -> broken.addAll(o.verdict().broken()));
    double median =
        seconds.size() % 2 == 1
            ? seconds.get(seconds.size() / 2)
            : (seconds.get(seconds.size() / 2 - 1) + seconds.get(seconds.size() / 2)) / 2;
    return String.format(
        "FAULT %s: %s %.1f/%.1f s%s",
        fault.label(),
        broken.isEmpty() ? "held" : "broken",
        median,
        seconds.get(seconds.size() - 1),
        broken.isEmpty() ? "" : " " + String.join("; ", new ArrayList<>(broken)));
  }

  @Override
  public void close() throws InterruptedException {
    closed = true;
    if (stream != null) {
      stream.interrupt();
      stream.join(10_000);
    }
  }
}
