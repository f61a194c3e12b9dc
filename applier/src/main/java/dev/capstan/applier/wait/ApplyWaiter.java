package dev.capstan.applier.wait;

import dev.capstan.applier.apply.ClusterAccess;
import dev.capstan.applier.common.Polling;
import dev.capstan.health.AggregateHealth;
import dev.capstan.health.Aggregation;
import dev.capstan.health.HealthEvaluator;
import dev.capstan.health.ResourceHealth;
import dev.capstan.kube.ObjectRef;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/**
 * The applier's wait: is a set of applied objects healthy yet. One look ({@link #health}) or a
 * blocking poll until {@link WaitResult.Verdict#CURRENT}, {@link WaitResult.Verdict#FAILED} or the
 * timeout ({@link #await}); whether a wait is over is decided by {@link WaitResult#of} alone.
 *
 * <p>A missing object is NotFound and an object that cannot be read is Unknown: neither is Current,
 * so both keep a wait going until its timeout.
 */
public final class ApplyWaiter {
  private final Supplier<? extends ObjectLookup> lookups;
  private final Executor executor;
  private final Polling polling;

  /**
   * @param lookups a lookup for each look (a lookup may keep what it learnt, e.g. discovery)
   * @param executor reads the objects of one look concurrently; it bounds the requests in flight
   * @param polling clock, interval and sleep of {@link #await}
   */
  public ApplyWaiter(Supplier<? extends ObjectLookup> lookups, Executor executor, Polling polling) {
    this.lookups = Objects.requireNonNull(lookups, "lookups");
    this.executor = Objects.requireNonNull(executor, "executor");
    this.polling = Objects.requireNonNull(polling, "polling");
  }

  /**
   * A waiter that reads live objects from the API server through {@code client}, finding their
   * kinds through {@code discovery}.
   */
  public static ApplyWaiter onCluster(ClusterAccess cluster) {
    return new ApplyWaiter(
        () -> new ClusterLookup(cluster.client(), cluster.discovery()),
        cluster.executor(),
        cluster.polling());
  }

  /** The health of {@code refs} now, read concurrently. */
  public AggregateHealth health(List<ObjectRef> refs, HealthEvaluator evaluator) {
    ObjectLookup lookup = lookups.get();
    List<CompletableFuture<Lookup>> reads = new ArrayList<>(refs.size());
    for (ObjectRef ref : refs) {
      reads.add(CompletableFuture.supplyAsync(() -> lookup.find(ref), executor));
    }
    List<Lookup> found = reads.stream().map(CompletableFuture::join).toList();
    return judge(refs, found, evaluator);
  }

  /**
   * The health of {@code refs} as {@code lookup} sees them, read one after another on this thread.
   */
  public static AggregateHealth health(
      List<ObjectRef> refs, ObjectLookup lookup, HealthEvaluator evaluator) {
    return judge(refs, refs.stream().map(lookup::find).toList(), evaluator);
  }

  /** Looks until the wait is over; never longer than {@code timeout} plus one look. */
  public WaitResult await(List<ObjectRef> refs, HealthEvaluator evaluator, Duration timeout) {
    return await(refs, evaluator, timeout, polling.interval());
  }

  /** As {@link #await(List, HealthEvaluator, Duration)}, looking again every {@code interval}. */
  public WaitResult await(
      List<ObjectRef> refs, HealthEvaluator evaluator, Duration timeout, Duration interval) {
    Instant deadline = polling.clock().instant().plus(timeout);
    while (true) {
      WaitResult result =
          WaitResult.of(health(refs, evaluator), polling.clock().instant(), deadline);
      if (!result.pending()) {
        return result;
      }
      try {
        polling.sleeper().sleep(interval);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return new WaitResult(WaitResult.Verdict.TIMED_OUT, result.health());
      }
    }
  }

  private static AggregateHealth judge(
      List<ObjectRef> refs, List<Lookup> found, HealthEvaluator evaluator) {
    List<ResourceHealth> healths = new ArrayList<>(refs.size());
    for (int i = 0; i < refs.size(); i++) {
      ObjectRef id = refs.get(i);
      Lookup lookup = found.get(i);
      if (lookup instanceof Lookup.NotRead notRead) {
        healths.add(new ResourceHealth(id, notRead.reason().status(notRead.message())));
      } else if (lookup instanceof Lookup.Found f && !HealthEvaluator.isSkipped(f.object())) {
        healths.add(new ResourceHealth(id, evaluator.status(f.object())));
      }
    }
    return Aggregation.of(healths);
  }
}
