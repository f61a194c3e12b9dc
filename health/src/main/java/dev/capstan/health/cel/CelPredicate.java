package dev.capstan.health.cel;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A boolean CEL expression over named objects (e.g. a dependency's {@code readyExpr} over {@code
 * dep} and {@code self}), compiled and evaluated in the health checks' environment and within their
 * limits: the same functions, cost, size and length bounds. Immutable; safe to evaluate from many
 * threads.
 */
public final class CelPredicate {
  // One environment for every predicate: building it costs more than compiling an expression.
  private static final CelHealthEnvironment ENVIRONMENT = new CelHealthEnvironment();

  private final CompiledExpr compiled;

  private CelPredicate(CompiledExpr compiled) {
    this.compiled = compiled;
  }

  /**
   * Compiles {@code source}, which may name only {@code variables} and must be a bool.
   *
   * @throws InvalidPredicateException with CEL's message, which carries the position
   */
  public static CelPredicate compile(String source, Set<String> variables) {
    CompiledExpr compiled;
    try {
      compiled = ENVIRONMENT.compile(source);
    } catch (CelHealthEnvironment.CelCompileException e) {
      throw new InvalidPredicateException(e.getMessage());
    }
    Set<String> unknown = new TreeSet<>();
    for (String path : compiled.fieldPaths()) {
      String root = path.contains(".") ? path.substring(0, path.indexOf('.')) : path;
      if (!variables.contains(root)) {
        unknown.add(root);
      }
    }
    if (!unknown.isEmpty()) {
      throw new InvalidPredicateException(
          "undeclared reference to "
              + String.join(", ", unknown)
              + " (the expression may use "
              + String.join(", ", new TreeSet<>(variables))
              + ")");
    }
    if (!compiled.mayBeBool()) {
      throw new InvalidPredicateException("the expression does not evaluate to a bool");
    }
    return new CelPredicate(compiled);
  }

  /**
   * Evaluates the expression with {@code variables} bound by name.
   *
   * @throws InvalidPredicateException when evaluation fails, passes a limit or is not a bool; the
   *     message quotes the expression, never the objects
   */
  public boolean test(Map<String, ?> variables) {
    try {
      return compiled.evaluate(variables);
    } catch (CompiledExpr.ExprEvaluationException e) {
      throw new InvalidPredicateException(e.getMessage());
    }
  }

  /** An expression that does not compile or cannot be evaluated; the message says which. */
  public static final class InvalidPredicateException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    InvalidPredicateException(String message) {
      super(message);
    }
  }
}
