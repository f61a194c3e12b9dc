package dev.capstan.health.cel;

import dev.cel.common.ast.CelExpr;
import dev.cel.runtime.CelEvaluationListener;
import dev.cel.runtime.CelFunctionResolver;
import dev.cel.runtime.CelResolvedOverload;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;

/**
 * The work and memory one evaluation of one expression may use; created for the evaluation and
 * dropped after it, used by one thread.
 *
 * <p>cel-java has no cost tracking of its own (cel-go's has), so the budget follows the evaluation
 * from the outside: as the interpreter's evaluation listener it hears about every node it
 * evaluates, with the node's value, and charges what the {@link ChargePlan} of the expression says:
 * a unit per node evaluated, the size of every value handed to a function (reported before the
 * function runs), the memory of every value created. A value created in one step is at most a small
 * multiple of the values it was made of (their sum, for a concatenation), except in the {@link
 * GuardedFunction}s, which the budget also resolves for the interpreter and charges before they
 * run. So no step can allocate more than a small multiple of what the budget allows or the object
 * holds, and no evaluation can go on after the budget is spent: it fails with {@link
 * CelLimitExceededException}, to which the interpreter adds the position of the node.
 */
final class EvaluationBudget implements CelEvaluationListener, CelFunctionResolver {
  private final CelLimits limits;
  private final ChargePlan plan;
  private final GuardedBindings guarded;
  private long cost;
  private long output;

  EvaluationBudget(CelLimits limits, ChargePlan plan, GuardedBindings guarded) {
    this.limits = limits;
    this.plan = plan;
    this.guarded = guarded;
    chargeCost(plan.baseCost());
  }

  @Override
  public void callback(CelExpr expr, Object value) {
    // Called for every node: most find 0 here (see ChargePlan) and cost nothing more.
    int charge = plan.charge(expr.id());
    if (charge != 0) {
      charge(charge, value);
    }
  }

  private void charge(int charge, Object value) {
    chargeCost(
        (charge >>> ChargePlan.ITERATION_SHIFT) + work(charge & ChargePlan.TRAVERSAL, value));
    if ((charge & ChargePlan.CREATES) != 0) {
      chargeOutput(ValueSize.bytes(value));
    }
  }

  private long work(int traversal, Object value) {
    return switch (traversal) {
      case ChargePlan.STRINGS -> ValueSize.stringWork(value);
      case ChargePlan.SHALLOW -> ValueSize.shallowWork(value);
      case ChargePlan.DEEP -> ValueSize.deepWork(value, costLeft());
      case ChargePlan.MEMBERSHIP ->
          value instanceof Map<?, ?> ? 0 : ValueSize.deepWork(value, costLeft());
      default -> 0;
    };
  }

  @Override
  public Optional<CelResolvedOverload> findOverloadMatchingArgs(
      String functionName, Collection<String> overloadIds, Object[] args) {
    return guarded.resolve(functionName, overloadIds, args, this);
  }

  @Override
  public Optional<CelResolvedOverload> findOverloadMatchingArgs(
      String functionName, Object[] args) {
    // Only unchecked expressions are resolved without overload ids; every health check is checked.
    return Optional.empty();
  }

  CelLimits limits() {
    return limits;
  }

  /**
   * @throws CelLimitExceededException when the work would exceed the limit
   */
  void chargeCost(long units) {
    cost += units;
    if (cost > limits.maxCost() || cost < 0) {
      throw CelLimitExceededException.cost(limits);
    }
  }

  /**
   * @throws CelLimitExceededException when the memory would exceed the limit
   */
  void chargeOutput(long bytes) {
    output += bytes;
    if (output > limits.maxOutputBytes() || output < 0) {
      throw CelLimitExceededException.output(limits);
    }
  }

  /**
   * Checks, before a value of this many bytes is made, that it will fit; the value is charged once
   * made.
   *
   * @throws CelLimitExceededException when it would not fit
   */
  void ensureOutputRoom(long bytes) {
    if (bytes > outputLeft()) {
      throw CelLimitExceededException.output(limits);
    }
  }

  long costLeft() {
    return limits.maxCost() - cost;
  }

  long outputLeft() {
    return limits.maxOutputBytes() - output;
  }
}
