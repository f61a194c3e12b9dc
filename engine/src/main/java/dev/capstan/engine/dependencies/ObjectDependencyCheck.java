package dev.capstan.engine.dependencies;

import dev.capstan.health.HealthEvaluator;
import dev.capstan.health.status.ResourceStatus;
import dev.capstan.health.status.Status;
import java.util.Map;

/**
 * Whether a depended-on object other than a Kustomization is ready. Pure.
 *
 * <p>Without a readyExpr, it is ready when its health status is Current: the status the engine
 * gives the objects it applies (kstatus rules, the built-in CEL library and the dependent's
 * healthCheckExprs). A readyExpr replaces that rule. Missing, unreadable and unserved objects are
 * all "not found", with the reason.
 */
public final class ObjectDependencyCheck {
  private ObjectDependencyCheck() {}

  /**
   * @param id the dependency
   * @param lookup what reading it found
   * @param evaluator the dependent's health evaluator
   * @param readyExpr the compiled readyExpr, or null
   * @param self the dependent, as the expression sees it ({@code self})
   */
  public static DependencyReadiness check(
      ObjectDependency id,
      DependencyLookup lookup,
      HealthEvaluator evaluator,
      ReadyExpression readyExpr,
      Map<String, Object> self) {
    String name = "dependency '" + id + "'";
    if (lookup instanceof DependencyLookup.Found found) {
      return readyExpr == null
          ? byStatus(name, evaluator.status(found.object()))
          : byExpression(name, readyExpr, found.object(), self);
    }
    if (lookup instanceof DependencyLookup.Unreadable unreadable) {
      return DependencyReadiness.notReady(name + " not found: " + unreadable.why());
    }
    if (lookup instanceof DependencyLookup.NotServed) {
      return DependencyReadiness.notReady(
          name + " not found: the API server does not serve " + id.apiVersion() + " " + id.kind());
    }
    if (lookup instanceof DependencyLookup.ReadFailed failed) {
      return DependencyReadiness.notReady(name + " cannot be read: " + failed.why());
    }
    return DependencyReadiness.notReady(name + " not found");
  }

  private static DependencyReadiness byStatus(String name, ResourceStatus status) {
    if (status.status() == Status.Current) {
      return DependencyReadiness.ready();
    }
    String message =
        status.message() == null || status.message().isBlank() ? "" : ": " + status.message();
    return DependencyReadiness.notReady(name + " is not ready: " + status.status() + message);
  }

  private static DependencyReadiness byExpression(
      String name, ReadyExpression readyExpr, Map<String, Object> dep, Map<String, Object> self) {
    try {
      return readyExpr.evaluate(dep, self)
          ? DependencyReadiness.ready()
          : DependencyReadiness.notReady(
              name + " is not ready: readyExpr '" + readyExpr.source() + "' is false");
    } catch (ReadyExpression.InvalidExpressionException e) {
      return DependencyReadiness.notReady(name + ": " + e.getMessage());
    }
  }
}
