package dev.capstan.engine.dependencies;

import dev.capstan.health.cel.CelPredicate;
import java.util.Map;
import java.util.Set;

/**
 * A {@code dependsOn[].readyExpr}: a CEL expression over the dependency object, bound as {@code
 * dep}, and the dependent itself, bound as {@code self}. Compiled once, in the health checks' CEL
 * environment and within their limits (cost, sizes, length): an expression is a tenant's, evaluated
 * in the shared engine. Immutable and safe to evaluate from many threads.
 */
public final class ReadyExpression {
  private static final Set<String> VARIABLES = Set.of("dep", "self");

  private final String source;
  private final CelPredicate predicate;

  private ReadyExpression(String source, CelPredicate predicate) {
    this.source = source;
    this.predicate = predicate;
  }

  /**
   * Compiles an expression.
   *
   * @throws InvalidExpressionException with CEL's message, which carries the position
   */
  public static ReadyExpression compile(String source) {
    try {
      return new ReadyExpression(source, CelPredicate.compile(source, VARIABLES));
    } catch (CelPredicate.InvalidPredicateException e) {
      throw new InvalidExpressionException("invalid readyExpr '" + source + "': " + e.getMessage());
    }
  }

  public String source() {
    return source;
  }

  /**
   * Evaluates the expression.
   *
   * @throws InvalidExpressionException when evaluation fails (e.g. a field the object lacks, or a
   *     limit passed)
   */
  public boolean evaluate(Map<String, Object> dep, Map<String, Object> self) {
    try {
      return predicate.test(Map.of("dep", dep, "self", self));
    } catch (CelPredicate.InvalidPredicateException e) {
      throw new InvalidExpressionException("failed to evaluate readyExpr: " + e.getMessage());
    }
  }

  /** An expression that does not compile or cannot be evaluated; the message says which. */
  public static final class InvalidExpressionException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public InvalidExpressionException(String message) {
      super(message);
    }
  }
}
