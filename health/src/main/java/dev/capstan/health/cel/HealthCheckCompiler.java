package dev.capstan.health.cel;

import java.util.ArrayList;
import java.util.List;

/**
 * Turns {@code healthCheckExprs} entries into checks. The shape of every entry is validated at
 * once; its CEL expressions are compiled when the check is first used ({@link LazyHealthCheck}), or
 * at once by {@link #compileAll}. The CEL environment itself is built on the first compile, so a
 * compiler that never compiles costs nothing.
 */
public final class HealthCheckCompiler {
  private volatile CelHealthEnvironment environment;

  /**
   * Checks that compile on first use.
   *
   * @param listName how the list is called in error messages, e.g. {@code healthchecks}
   * @param builtin whether the entries are the built-in library's, whose checks call an object
   *     without a reported status InProgress instead of failing on the missing field
   * @throws InvalidHealthCheckException if an entry has no apiVersion or no current expression
   */
  public List<LazyHealthCheck> deferAll(
      List<HealthCheckExpr> entries, String listName, boolean builtin) {
    List<LazyHealthCheck> checks = new ArrayList<>(entries.size());
    for (int i = 0; i < entries.size(); i++) {
      HealthCheckExpr entry = entries.get(i);
      String where =
          (entry.label().isEmpty() ? "entry without apiVersion" : entry.label())
              + ": failed to create custom status evaluator for "
              + listName
              + "["
              + i
              + "]: ";
      validate(entry, where);
      checks.add(new LazyHealthCheck(entry, () -> compile(entry, where, builtin)));
    }
    return checks;
  }

  /**
   * Checks compiled now, so that an expression that does not compile is rejected here.
   *
   * @throws InvalidHealthCheckException naming the entry, the expression and the error position
   */
  public List<LazyHealthCheck> compileAll(
      List<HealthCheckExpr> entries, String listName, boolean builtin) {
    List<LazyHealthCheck> checks = deferAll(entries, listName, builtin);
    checks.forEach(LazyHealthCheck::get);
    return checks;
  }

  private static void validate(HealthCheckExpr entry, String where) {
    if (entry.apiVersion().isEmpty()) {
      throw new InvalidHealthCheckException(where + "apiVersion not specified");
    }
    if (entry.current().isBlank()) {
      throw new InvalidHealthCheckException(where + "expression Current not specified");
    }
  }

  private CelHealthCheck compile(HealthCheckExpr entry, String where, boolean builtin) {
    return new CelHealthCheck(
        entry,
        compileOne(entry.current(), "Current", where),
        entry.inProgress().isBlank() ? null : compileOne(entry.inProgress(), "InProgress", where),
        entry.failed().isBlank() ? null : compileOne(entry.failed(), "Failed", where),
        builtin);
  }

  private CompiledExpr compileOne(String expression, String name, String where) {
    try {
      return environment().compile(expression);
    } catch (CelHealthEnvironment.CelCompileException e) {
      // An expression over the length limit is not quoted: the message would be as long.
      String quoted =
          e.tooLong() ? "" : ": failed to parse the CEL expression '" + expression + "'";
      throw new InvalidHealthCheckException(
          where + "failed to parse the expression " + name + quoted + ": " + e.getMessage());
    }
  }

  private CelHealthEnvironment environment() {
    CelHealthEnvironment built = environment;
    if (built == null) {
      synchronized (this) {
        if (environment == null) {
          environment = new CelHealthEnvironment();
        }
        built = environment;
      }
    }
    return built;
  }
}
