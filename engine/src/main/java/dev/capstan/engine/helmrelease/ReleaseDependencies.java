package dev.capstan.engine.helmrelease;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capstan.api.helm.HelmRelease;
import dev.capstan.api.helm.HelmReleaseDependency;
import dev.capstan.api.kustomize.DependencyReference;
import dev.capstan.engine.conditions.ReleaseReason;
import dev.capstan.engine.core.NamespacedName;
import dev.capstan.engine.dependencies.DependencyGraph;
import dev.capstan.engine.dependencies.DependencyReadiness;
import dev.capstan.engine.dependencies.DependencyWalk;
import dev.capstan.engine.dependencies.ObjectDependency;
import dev.capstan.engine.dependencies.ObjectDependencyCheck;
import dev.capstan.engine.dependencies.ReadyExpression;
import dev.capstan.engine.kustomization.ReferenceRules;
import dev.capstan.health.HealthEvaluator;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The dependsOn gate of a HelmRelease, before its chart is looked at (as Flux's helm-controller
 * checks): it goes on only once each dependency is ready. A dependency is a HelmRelease (no kind,
 * as in Flux), a Kustomization or any other object, read live with the engine's own rights (as Flux
 * reads them) and judged by the rules Kustomizations' dependencies other than Kustomizations are
 * judged by ({@link ObjectDependencyCheck}: health status Current, which for a HelmRelease or
 * Kustomization is its Ready condition True for its current generation; or its {@code readyExpr}).
 * Not ready is a wait ({@code DependencyNotReady}); a cycle through HelmReleases and Kustomizations
 * ({@link DependencyWalk}) and, with cross-namespace references refused, a dependency in another
 * namespace are failures, retried with backoff, since another object's change can end them; an
 * invalid readyExpr is Stalled (InvalidCELExpression, no retry) until the spec changes.
 */
final class ReleaseDependencies {
  private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {};
  private static final int MAX_EXPRESSIONS = 1_000;

  private final ReferenceRules rules;
  private final ObjectMapper mapper = new ObjectMapper();
  private final Map<String, ReadyExpression> expressions = new ConcurrentHashMap<>();

  ReleaseDependencies(ReferenceRules rules) {
    this.rules = rules;
  }

  /**
   * Goes on only once what spec.dependsOn names is ready, as {@code actor} reads it, judged with
   * the release's own health checks.
   */
  void await(
      HelmRelease release, ReleaseActors.Actor actor, ReleaseEvaluators evaluators, Clock clock) {
    if (release.getSpec().dependencies().isEmpty()) {
      return;
    }
    ReleaseHealth health = new ReleaseHealth(actor.acting(), evaluators, clock);
    check(release, actor.dependencies(), health.evaluator(release.getSpec()));
  }

  /**
   * @param reads reads a dependency with the engine's client
   * @param evaluator the HelmRelease's health evaluator (its healthCheckExprs)
   * @throws ReleaseFailure when it may not go on
   */
  void check(HelmRelease release, ReleaseActors.DependencyReads reads, HealthEvaluator evaluator) {
    List<HelmReleaseDependency> deps = release.getSpec().dependencies();
    if (deps.isEmpty()) {
      return;
    }
    NamespacedName self = NamespacedName.of(release);
    List<ObjectDependency> ids = deps.stream().map(d -> object(d, self.namespace())).toList();
    rules
        .dependsOnRefusal(self, deps.stream().map(ReleaseDependencies::reference).toList())
        .ifPresent(
            refused -> {
              throw ReleaseFailure.failed(ReleaseReason.ACCESS_DENIED, refused);
            });
    List<ReadyExpression> exprs = new ArrayList<>();
    for (int i = 0; i < deps.size(); i++) {
      exprs.add(expression(deps.get(i).readyExpr(), i));
    }
    Map<String, Object> selfMap = mapper.convertValue(release, MAP);
    Optional<List<ObjectDependency>> cycle =
        DependencyWalk.cycleThrough(
            DependencyWalk.helmRelease(self.namespace(), self.name()), selfMap, reads::read);
    if (cycle.isPresent()) {
      throw ReleaseFailure.failed(
          ReleaseReason.DEPENDENCY_CYCLE,
          "dependency cycle: " + DependencyGraph.describe(cycle.get()));
    }
    List<String> notReady = new ArrayList<>();
    for (int i = 0; i < ids.size(); i++) {
      ObjectDependency id = ids.get(i);
      DependencyReadiness readiness =
          ObjectDependencyCheck.check(id, reads.read(id), evaluator, exprs.get(i), selfMap);
      if (!readiness.isReady()) {
        notReady.add(readiness.reason());
      }
    }
    if (!notReady.isEmpty()) {
      notReady.sort(null);
      throw ReleaseFailure.waiting(ReleaseReason.DEPENDENCY_NOT_READY, String.join("; ", notReady));
    }
  }

  /** The object an entry names: a HelmRelease when it has no kind, as in Flux. */
  static ObjectDependency object(HelmReleaseDependency dep, String namespace) {
    DependencyReference ref = reference(dep);
    String ns = ref.namespace() == null || ref.namespace().isEmpty() ? namespace : ref.namespace();
    return new ObjectDependency(ref.apiVersion(), ref.kind(), ns, ref.name());
  }

  /** The entry in the form a Kustomization's takes, its kind and apiVersion filled in. */
  private static DependencyReference reference(HelmReleaseDependency dep) {
    boolean helmRelease = dep.kind() == null || dep.kind().isEmpty();
    if (helmRelease || "HelmRelease".equals(dep.kind()) && dep.apiVersion() == null) {
      ObjectDependency hr = DependencyWalk.helmRelease(dep.namespace(), dep.name());
      return new DependencyReference(
          hr.apiVersion(), hr.kind(), dep.name(), dep.namespace(), dep.readyExpr());
    }
    if (dep.apiVersion() == null || dep.apiVersion().isEmpty()) {
      // The API server's validation refuses this; an object written around it is refused here.
      throw ReleaseFailure.failed(
          ReleaseReason.INIT_FAILED, "spec.dependsOn: kind " + dep.kind() + " needs an apiVersion");
    }
    return new DependencyReference(
        dep.apiVersion(), dep.kind(), dep.name(), dep.namespace(), dep.readyExpr());
  }

  private ReadyExpression expression(String source, int index) {
    if (source == null || source.isBlank()) {
      return null;
    }
    try {
      if (expressions.size() >= MAX_EXPRESSIONS) {
        expressions.clear();
      }
      return expressions.computeIfAbsent(source, ReadyExpression::compile);
    } catch (ReadyExpression.InvalidExpressionException e) {
      // Only a change of the spec can mend it, as Kustomizations' gate judges it: no retry.
      throw ReleaseFailure.stalled(
          ReleaseReason.INVALID_CEL_EXPRESSION,
          "spec.dependsOn[" + index + "].readyExpr: " + e.getMessage());
    }
  }
}
