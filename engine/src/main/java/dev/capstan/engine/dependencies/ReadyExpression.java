package dev.capstan.engine.dependencies;

import dev.cel.bundle.Cel;
import dev.cel.bundle.CelFactory;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelOptions;
import dev.cel.common.CelValidationException;
import dev.cel.common.types.SimpleType;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;
import java.util.Map;

/**
 * A {@code dependsOn[].readyExpr}: a CEL expression over the dependency object, bound as
 * {@code dep}, and the dependent itself, bound as {@code self}. Compiled once; immutable and safe
 * to evaluate from many threads.
 */
public final class ReadyExpression {
  private static final int MAX_ITERATIONS = 10_000;

  private static final Cel CEL =
      CelFactory.standardCelBuilder()
          .setOptions(
              CelOptions.current()
                  .enableHeterogeneousNumericComparisons(true)
                  .comprehensionMaxIterations(MAX_ITERATIONS)
                  .build())
          .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
          .addVar("dep", SimpleType.DYN)
          .addVar("self", SimpleType.DYN)
          .setResultType(SimpleType.BOOL)
          .build();

  private final String source;
  private final CelRuntime.Program program;

  private ReadyExpression(String source, CelRuntime.Program program) {
    this.source = source;
    this.program = program;
  }

  /**
   * Compiles an expression.
   *
   * @throws InvalidExpressionException with CEL's message, which carries the position
   */
  public static ReadyExpression compile(String source) {
    try {
      CelAbstractSyntaxTree ast = CEL.compile(source).getAst();
      return new ReadyExpression(source, CEL.createProgram(ast));
    } catch (CelValidationException | CelEvaluationException e) {
      throw new InvalidExpressionException(
          "invalid readyExpr '" + source + "': " + e.getMessage());
    }
  }

  public String source() {
    return source;
  }

  /**
   * Evaluates the expression.
   *
   * @throws InvalidExpressionException when evaluation fails (e.g. a field the object lacks)
   */
  public boolean evaluate(Map<String, Object> dep, Map<String, Object> self) {
    try {
      Object result = program.eval(Map.of("dep", dep, "self", self));
      if (result instanceof Boolean b) {
        return b;
      }
      throw new InvalidExpressionException(
          "readyExpr '" + source + "' did not evaluate to a bool");
    } catch (CelEvaluationException | RuntimeException e) {
      if (e instanceof InvalidExpressionException invalid) {
        throw invalid;
      }
      throw new InvalidExpressionException(
          "failed to evaluate readyExpr '" + source + "': " + e.getMessage());
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
