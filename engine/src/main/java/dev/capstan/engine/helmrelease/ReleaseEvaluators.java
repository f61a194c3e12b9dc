package dev.capstan.engine.helmrelease;

import dev.capstan.engine.conditions.ReleaseReason;
import dev.capstan.health.CompiledEvaluators;
import dev.capstan.health.HealthEvaluator;
import dev.capstan.health.cel.BuiltinLibrary;
import dev.capstan.health.cel.HealthCheckExpr;
import dev.capstan.health.cel.InvalidHealthCheckException;
import java.time.Clock;
import java.util.List;

/**
 * The health evaluators of the HelmRelease pipeline, one per set of health checks, kept across
 * reconciles ({@link CompiledEvaluators}); a check that is not valid fails the release. The hooks'
 * evaluator compiles its checks only when a hook is first judged: most charts have no hooks, and
 * building the CEL environment for nothing costs the engine its classes' memory.
 */
final class ReleaseEvaluators {
  private final CompiledEvaluators compiled;
  private final HealthEvaluator hooks;

  ReleaseEvaluators(BuiltinLibrary library, Clock clock) {
    this.compiled = new CompiledEvaluators(library, clock);
    this.hooks = HealthEvaluator.deferred(ReleaseHealth.HOOK_CHECKS, library, clock);
  }

  /** The evaluator of a release's hooks ({@link ReleaseHealth#HOOK_CHECKS}). */
  HealthEvaluator hooks() {
    return hooks;
  }

  /**
   * The evaluator of {@code checks}, compiled at its first use.
   *
   * @throws ReleaseFailure INIT_FAILED when an expression of spec.healthCheckExprs is not valid
   */
  HealthEvaluator of(List<HealthCheckExpr> checks) {
    try {
      return compiled.of(checks);
    } catch (InvalidHealthCheckException e) {
      throw ReleaseFailure.failed(
          ReleaseReason.INIT_FAILED, "spec.healthCheckExprs: " + e.getMessage());
    }
  }

  /** How many evaluators were compiled. */
  int created() {
    return compiled.created();
  }
}
