package dev.capstan.engine.dependencies;

import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.kustomize.KustomizationStatus;
import dev.capstan.engine.conditions.ConditionTypes;
import dev.capstan.engine.conditions.KustomizationStatuses;
import dev.capstan.engine.core.NamespacedName;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * Whether a dependency is ready, from what is known about it. Pure.
 *
 * <p>Without a readyExpr, a dependency is ready when its Ready condition is True for its current
 * generation and the revision it applied is its source's current revision. A readyExpr replaces
 * that rule.
 */
public final class DependencyCheck {
  private DependencyCheck() {}

  /**
   * @param key the dependency's name
   * @param dependency the dependency, if it exists
   * @param sourceRevision the current artifact revision of the dependency's source, if known
   * @param readyExpr the compiled readyExpr, or null
   * @param asMap turns a Kustomization into the map the expression sees
   */
  public static DependencyReadiness check(
      NamespacedName key,
      Optional<Kustomization> dependency,
      Optional<String> sourceRevision,
      ReadyExpression readyExpr,
      Kustomization self,
      Function<Kustomization, Map<String, Object>> asMap) {
    if (dependency.isEmpty()) {
      return DependencyReadiness.notReady("dependency '" + key + "' not found");
    }
    Kustomization dep = dependency.get();
    if (readyExpr != null) {
      try {
        return readyExpr.evaluate(asMap.apply(dep), asMap.apply(self))
            ? DependencyReadiness.ready()
            : DependencyReadiness.notReady(
                "dependency '"
                    + key
                    + "' is not ready: readyExpr '"
                    + readyExpr.source()
                    + "' is false");
      } catch (ReadyExpression.InvalidExpressionException e) {
        return DependencyReadiness.notReady("dependency '" + key + "': " + e.getMessage());
      }
    }
    return byStatus(key, dep, sourceRevision);
  }

  private static DependencyReadiness byStatus(
      NamespacedName key, Kustomization dep, Optional<String> sourceRevision) {
    KustomizationStatus status = dep.getStatus();
    Long generation = dep.getMetadata().getGeneration();
    if (status == null || !Objects.equals(status.observedGeneration(), generation)) {
      return DependencyReadiness.notReady(
          "dependency '" + key + "' is not ready: its latest generation was not reconciled yet");
    }
    boolean ready =
        KustomizationStatuses.condition(status, ConditionTypes.READY)
            .map(c -> ConditionTypes.TRUE.equals(c.getStatus()))
            .orElse(false);
    if (!ready) {
      return DependencyReadiness.notReady("dependency '" + key + "' is not ready");
    }
    if (sourceRevision.isEmpty()) {
      return DependencyReadiness.notReady(
          "dependency '" + key + "' is not ready: its source has no artifact");
    }
    if (!sourceRevision.get().equals(status.lastAppliedRevision())) {
      return DependencyReadiness.notReady(
          "dependency '"
              + key
              + "' is not ready: revision "
              + sourceRevision.get()
              + " not applied yet");
    }
    return DependencyReadiness.ready();
  }
}
