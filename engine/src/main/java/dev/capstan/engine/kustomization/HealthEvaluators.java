package dev.capstan.engine.kustomization;

import dev.capstan.api.kustomize.HealthCheckExpression;
import dev.capstan.engine.conditions.Reason;
import dev.capstan.health.HealthEvaluator;
import dev.capstan.health.cel.BuiltinLibrary;
import dev.capstan.health.cel.HealthCheckExpr;
import dev.capstan.health.cel.InvalidHealthCheckException;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Health evaluators for Kustomizations: the built-in library plus each one's healthCheckExprs.
 * Compiled once per distinct list of expressions.
 */
public final class HealthEvaluators {
  private static final int MAX_CACHED = 512;

  private final BuiltinLibrary library;
  private final Clock clock;
  private final Map<List<HealthCheckExpr>, HealthEvaluator> cache = new ConcurrentHashMap<>();

  HealthEvaluators(BuiltinLibrary library, Clock clock) {
    this.library = library;
    this.clock = clock;
  }

  /** A Kustomization's {@code healthCheckExprs} as the health module takes them; null is none. */
  public static List<HealthCheckExpr> checksOf(List<HealthCheckExpression> expressions) {
    return expressions == null
        ? List.of()
        : expressions.stream()
            .map(
                e ->
                    new HealthCheckExpr(
                        e.apiVersion(), e.kind(), e.current(), e.inProgress(), e.failed()))
            .toList();
  }

  /** The evaluator for these expressions; an expression that does not compile is terminal. */
  HealthEvaluator forExpressions(List<HealthCheckExpression> expressions) {
    List<HealthCheckExpr> exprs = checksOf(expressions);
    HealthEvaluator cached = cache.get(exprs);
    if (cached != null) {
      return cached;
    }
    try {
      HealthEvaluator evaluator = HealthEvaluator.create(exprs, library, clock);
      if (cache.size() >= MAX_CACHED) {
        cache.clear();
      }
      cache.put(exprs, evaluator);
      return evaluator;
    } catch (InvalidHealthCheckException e) {
      throw StageFailure.terminal(
          Reason.INVALID_CEL_EXPRESSION, "spec.healthCheckExprs: " + e.getMessage());
    }
  }
}
