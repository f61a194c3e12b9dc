package dev.capstan.health.cel;

import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;
import dev.cel.runtime.CelUnknownSet;
import dev.cel.runtime.CelVariableResolver;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;

/** One compiled health check expression; immutable and safe to evaluate from many threads. */
final class CompiledExpr {
  private final String source;
  private final CelRuntime.Program program;
  private final Map<Long, String> rootPaths;
  private final Supplier<EvaluationBudget> budgets;
  private final boolean mayBeBool;

  /**
   * @param budgets a new budget for each evaluation
   * @param mayBeBool whether the checker found the result may be a bool (dyn or bool)
   */
  CompiledExpr(
      String source,
      CelRuntime.Program program,
      Map<Long, String> rootPaths,
      Supplier<EvaluationBudget> budgets,
      boolean mayBeBool) {
    this.source = source;
    this.program = program;
    this.rootPaths = Map.copyOf(rootPaths);
    this.budgets = budgets;
    this.mayBeBool = mayBeBool;
  }

  boolean mayBeBool() {
    return mayBeBool;
  }

  String source() {
    return source;
  }

  /** The dotted field paths the expression mentions, e.g. {@code status.conditions}. */
  Collection<String> fieldPaths() {
    return rootPaths.values();
  }

  /**
   * Evaluates the expression with the object's top-level fields as variables.
   *
   * @throws ExprEvaluationException when evaluation fails or the result is not a bool; there is no
   *     fall-back to false
   */
  boolean evaluate(Map<String, ?> object) throws ExprEvaluationException {
    Object result = run(object);
    if (result instanceof Boolean b) {
      return b;
    }
    if (result instanceof CelUnknownSet unknown) {
      throw new ExprEvaluationException(
          "failed to evaluate the CEL expression '"
              + source
              + "': no such attribute(s): "
              + missingAttributes(unknown, object));
    }
    throw new ExprEvaluationException(
        "failed to evaluate CEL expression as boolean: '" + source + "'");
  }

  private Object run(Map<String, ?> object) throws ExprEvaluationException {
    EvaluationBudget budget = budgets.get();
    try {
      // A resolver reads the object in place (eval(Map) would copy its top level on every call);
      // CelInput converts Jackson's Integers and nulls into CEL values as they are read. The
      // budget hears of every node evaluated and supplies the guarded functions.
      return program.trace(
          (CelVariableResolver) name -> CelInput.field(object, name), budget, budget);
    } catch (CelEvaluationException e) {
      throw new ExprEvaluationException(
          "failed to evaluate the CEL expression '"
              + source
              + "': "
              + EvaluationErrorText.of(e, source));
    } catch (RuntimeException e) {
      // Not raised by cel-java's own checks: say what kind of failure, not its message, which
      // may quote the object.
      throw new ExprEvaluationException(
          "failed to evaluate the CEL expression '"
              + source
              + "': evaluation failed ("
              + e.getClass().getSimpleName()
              + ")");
    }
  }

  private String missingAttributes(CelUnknownSet unknown, Map<String, ?> object) {
    Map<Long, String> inSourceOrder = new TreeMap<>(rootPaths);
    Set<String> paths = new LinkedHashSet<>();
    inSourceOrder.forEach(
        (id, path) -> {
          if (unknown.unknownExprIds().contains(id)) {
            paths.add(path);
          }
        });
    if (paths.isEmpty()) {
      inSourceOrder.values().stream()
          .filter(path -> !object.containsKey(rootOf(path)))
          .forEach(paths::add);
    }
    return paths.isEmpty() ? "(unknown)" : String.join(", ", paths);
  }

  private static String rootOf(String path) {
    int dot = path.indexOf('.');
    return dot < 0 ? path : path.substring(0, dot);
  }

  /** Evaluation failed; the message names the expression. */
  static final class ExprEvaluationException extends Exception {
    private static final long serialVersionUID = 1L;

    ExprEvaluationException(String message) {
      super(message, null, false, false);
    }
  }
}
