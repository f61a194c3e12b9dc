package dev.capstan.health.cel;

/**
 * One entry of {@code healthCheckExprs}: CEL expressions that decide the health of every object of
 * an apiVersion/kind.
 *
 * <p>Only the group of {@code apiVersion} matters. An empty {@code kind} makes the entry apply to
 * every kind of the group. In the built-in library, {@code apiVersion} may also be written {@code
 * group/*}. {@code inProgress} and {@code failed} are optional (null or empty means not set);
 * {@code current} is required.
 */
public record HealthCheckExpr(
    String apiVersion, String kind, String current, String inProgress, String failed) {

  public HealthCheckExpr {
    apiVersion = apiVersion == null ? "" : apiVersion;
    kind = kind == null ? "" : kind;
    current = current == null ? "" : current;
    inProgress = inProgress == null ? "" : inProgress;
    failed = failed == null ? "" : failed;
  }

  /** A short label for messages, e.g. {@code cert-manager.io/v1/Certificate}. */
  public String label() {
    return kind.isEmpty() ? apiVersion : apiVersion + "/" + kind;
  }
}
