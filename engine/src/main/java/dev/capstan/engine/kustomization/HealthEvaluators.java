package dev.capstan.engine.kustomization;

import dev.capstan.api.kustomize.HealthCheckExpression;
import dev.capstan.engine.conditions.Reason;
import dev.capstan.health.CompiledEvaluators;
import dev.capstan.health.HealthEvaluator;
import dev.capstan.health.cel.BuiltinLibrary;
import dev.capstan.health.cel.HealthCheckExpr;
import dev.capstan.health.cel.InvalidHealthCheckException;
import java.time.Clock;
import java.util.List;

/**
 * Health evaluators for Kustomizations: the built-in library plus each one's healthCheckExprs,
 * compiled once per distinct list of expressions ({@link CompiledEvaluators}).
 */
public final class HealthEvaluators {
  private final CompiledEvaluators compiled;

  HealthEvaluators(BuiltinLibrary library, Clock clock) {
    this.compiled = new CompiledEvaluators(library, clock);
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
    try {
      return compiled.of(checksOf(expressions));
    } catch (InvalidHealthCheckException e) {
      throw StageFailure.terminal(
          Reason.INVALID_CEL_EXPRESSION, "spec.healthCheckExprs: " + e.getMessage());
    }
  }
}
