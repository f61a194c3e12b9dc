package dev.capstan.engine.helmrelease;

import dev.capstan.engine.conditions.ReleaseReason;
import dev.capstan.health.HealthEvaluator;
import dev.capstan.health.cel.BuiltinLibrary;
import dev.capstan.health.cel.HealthCheckExpr;
import dev.capstan.health.cel.InvalidHealthCheckException;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The health evaluators of the HelmRelease pipeline, one per set of health checks, kept across
 * reconciles: an evaluator compiles the built-in library's and the release's CEL expressions, and
 * compiling them again at each look of an unchanged release was most of its CPU. Bounded: a
 * tenant's ever-changing healthCheckExprs empty the cache rather than grow it.
 */
final class ReleaseEvaluators {
  private static final int MAX_CACHED = 512;

  private final BuiltinLibrary library;
  private final Clock clock;
  private final Map<List<HealthCheckExpr>, HealthEvaluator> evaluators = new ConcurrentHashMap<>();
  private final AtomicInteger created = new AtomicInteger();

  ReleaseEvaluators(BuiltinLibrary library, Clock clock) {
    this.library = library;
    this.clock = clock;
  }

  /**
   * The evaluator of {@code checks}, compiled at its first use.
   *
   * @throws ReleaseFailure INIT_FAILED when an expression of spec.healthCheckExprs is not valid
   */
  HealthEvaluator of(List<HealthCheckExpr> checks) {
    HealthEvaluator cached = evaluators.get(checks);
    if (cached != null) {
      return cached;
    }
    try {
      HealthEvaluator evaluator = HealthEvaluator.create(checks, library, clock);
      created.incrementAndGet();
      if (evaluators.size() >= MAX_CACHED) {
        evaluators.clear();
      }
      evaluators.put(List.copyOf(checks), evaluator);
      return evaluator;
    } catch (InvalidHealthCheckException e) {
      throw ReleaseFailure.failed(
          ReleaseReason.INIT_FAILED, "spec.healthCheckExprs: " + e.getMessage());
    }
  }

  /** How many evaluators were compiled. */
  int created() {
    return created.get();
  }
}
