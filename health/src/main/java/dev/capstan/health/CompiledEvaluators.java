package dev.capstan.health;

import dev.capstan.health.cel.BuiltinLibrary;
import dev.capstan.health.cel.HealthCheckExpr;
import dev.capstan.health.cel.InvalidHealthCheckException;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Evaluators kept by the health checks they were compiled from, for callers that need one per
 * object they reconcile (a Kustomization's or a HelmRelease's {@code healthCheckExprs}): compiling
 * the library's and the object's CEL expressions again at each look was most of the CPU of an
 * unchanged object's reconcile. Bounded: a tenant's ever-changing checks empty the cache rather
 * than grow it. Thread-safe.
 */
public final class CompiledEvaluators {
  private static final int MAX_CACHED = 512;

  private final BuiltinLibrary library;
  private final Clock clock;
  private final Map<List<HealthCheckExpr>, HealthEvaluator> evaluators = new ConcurrentHashMap<>();
  private final AtomicInteger created = new AtomicInteger();

  public CompiledEvaluators(BuiltinLibrary library, Clock clock) {
    this.library = library;
    this.clock = clock;
  }

  /**
   * The evaluator of {@code checks} with the built-in library, compiled at their first use.
   *
   * @throws InvalidHealthCheckException when an expression is not valid (see {@link
   *     HealthEvaluator#create})
   */
  public HealthEvaluator of(List<HealthCheckExpr> checks) throws InvalidHealthCheckException {
    HealthEvaluator cached = evaluators.get(checks);
    if (cached != null) {
      return cached;
    }
    HealthEvaluator evaluator = HealthEvaluator.create(checks, library, clock);
    created.incrementAndGet();
    if (evaluators.size() >= MAX_CACHED) {
      evaluators.clear();
    }
    evaluators.put(List.copyOf(checks), evaluator);
    return evaluator;
  }

  /** How many evaluators were compiled. */
  public int created() {
    return created.get();
  }
}
