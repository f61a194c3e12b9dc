package dev.capstan.health.cel;

/**
 * What one health check expression may cost. Expressions come from tenants' Kustomizations and from
 * files given to {@code capstan status}, and the objects they read come from Git and from the
 * cluster: neither is trusted, so every evaluation is bounded in time and in memory, and every
 * expression in length.
 *
 * @param maxExpressionLength longest expression accepted, in code points (the CRD's maxLength of
 *     every CEL field is the same number)
 * @param maxIterations comprehension iterations in one evaluation, nested or not
 * @param maxCost units of work in one evaluation: one per node of the expression evaluated, one per
 *     list element or map entry and one per ten characters or bytes of the values handed to a
 *     function, and the estimated work of the functions whose work grows faster than their input
 *     (see {@link EvaluationBudget})
 * @param maxOutputBytes estimated bytes of all the strings, bytes, lists and maps one evaluation
 *     creates
 * @param maxRegexProgramSize largest regular expression, in instructions of the compiled program
 */
record CelLimits(
    int maxExpressionLength,
    int maxIterations,
    long maxCost,
    long maxOutputBytes,
    int maxRegexProgramSize) {

  /**
   * The limits of every health check, the built-in library's included (its longest expression has
   * 1,181 characters). A typical expression reads a handful of conditions for a few hundred units
   * of work; 1,000,000 units is the per-expression limit Kubernetes gives its own CEL rules (about
   * 0.1 s).
   */
  static final CelLimits DEFAULT = new CelLimits(4_096, 10_000, 1_000_000, 4L << 20, 10_000);
}
