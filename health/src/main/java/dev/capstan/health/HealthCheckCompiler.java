package dev.capstan.health;

import java.util.ArrayList;
import java.util.List;

/** Turns {@code healthCheckExprs} entries into compiled checks, rejecting a bad entry up front. */
final class HealthCheckCompiler {
  private final CelHealthEnvironment environment;

  HealthCheckCompiler(CelHealthEnvironment environment) {
    this.environment = environment;
  }

  /**
   * Compiles every entry.
   *
   * @param listName how the list is called in error messages, e.g. {@code healthchecks}
   * @param builtin whether the entries are the built-in library's, whose checks call an object
   *     without a reported status InProgress instead of failing on the missing field
   * @throws InvalidHealthCheckException naming the entry, the expression and the error position
   */
  List<CelHealthCheck> compileAll(List<HealthCheckExpr> entries, String listName, boolean builtin) {
    List<CelHealthCheck> compiled = new ArrayList<>(entries.size());
    for (int i = 0; i < entries.size(); i++) {
      HealthCheckExpr entry = entries.get(i);
      String where =
          (entry.label().isEmpty() ? "entry without apiVersion" : entry.label())
              + ": failed to create custom status evaluator for " + listName + "[" + i + "]: ";
      compiled.add(compile(entry, where, builtin));
    }
    return compiled;
  }

  private CelHealthCheck compile(HealthCheckExpr entry, String where, boolean builtin) {
    if (entry.apiVersion().isEmpty()) {
      throw new InvalidHealthCheckException(where + "apiVersion not specified");
    }
    if (entry.current().isBlank()) {
      throw new InvalidHealthCheckException(where + "expression Current not specified");
    }
    return new CelHealthCheck(
        entry,
        compileOne(entry.current(), "Current", where),
        entry.inProgress().isBlank() ? null : compileOne(entry.inProgress(), "InProgress", where),
        entry.failed().isBlank() ? null : compileOne(entry.failed(), "Failed", where),
        builtin);
  }

  private CompiledExpr compileOne(String expression, String name, String where) {
    try {
      return environment.compile(expression);
    } catch (CelHealthEnvironment.CelCompileException e) {
      throw new InvalidHealthCheckException(
          where
              + "failed to parse the expression "
              + name
              + ": failed to parse the CEL expression '"
              + expression
              + "': "
              + e.getMessage());
    }
  }
}
