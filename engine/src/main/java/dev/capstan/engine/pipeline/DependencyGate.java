package dev.capstan.engine.pipeline;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capstan.api.kustomize.DependencyReference;
import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.engine.NamespacedName;
import dev.capstan.engine.conditions.Reason;
import dev.capstan.engine.dependencies.DependencyCheck;
import dev.capstan.engine.dependencies.DependencyGraph;
import dev.capstan.engine.dependencies.ReadyExpression;
import dev.capstan.engine.dependencies.Readiness;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The dependsOn gate: a Kustomization goes ahead only when every dependency is ready. A cycle
 * and an invalid readyExpr are terminal; anything else not ready is a wait.
 */
final class DependencyGate {
  private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {};

  private final ClusterView view;
  private final boolean noCrossNamespaceRefs;
  private final ObjectMapper mapper = new ObjectMapper();
  private final Map<String, ReadyExpression> expressions = new ConcurrentHashMap<>();

  DependencyGate(ClusterView view, boolean noCrossNamespaceRefs) {
    this.view = view;
    this.noCrossNamespaceRefs = noCrossNamespaceRefs;
  }

  /** The keys of the dependencies a Kustomization names. */
  static List<NamespacedName> dependencies(Kustomization ks) {
    List<DependencyReference> refs = ks.getSpec() == null ? null : ks.getSpec().dependsOn();
    if (refs == null) {
      return List.of();
    }
    String namespace = ks.getMetadata().getNamespace();
    return refs.stream().map(r -> NamespacedName.resolve(r.namespace(), r.name(), namespace)).toList();
  }

  void check(Kustomization ks) {
    List<DependencyReference> refs = ks.getSpec().dependsOn();
    if (refs == null || refs.isEmpty()) {
      return;
    }
    NamespacedName self = NamespacedName.of(ks);
    rejectCrossNamespace(self, dependencies(ks));
    rejectCycle(self);
    List<String> notReady = new ArrayList<>();
    for (int i = 0; i < refs.size(); i++) {
      DependencyReference ref = refs.get(i);
      NamespacedName key = NamespacedName.resolve(ref.namespace(), ref.name(), self.namespace());
      Optional<Kustomization> dependency = view.kustomization(key);
      Readiness readiness =
          DependencyCheck.check(key, dependency, dependency.flatMap(this::sourceRevision),
              expression(ref.readyExpr(), i), ks, this::asMap);
      if (!readiness.isReady()) {
        notReady.add(readiness.reason());
      }
    }
    if (!notReady.isEmpty()) {
      notReady.sort(null);
      throw StageFailure.waiting(Reason.DEPENDENCY_NOT_READY, String.join("; ", notReady));
    }
  }

  /**
   * With cross-namespace references forbidden, a dependency in another namespace is refused
   * before anything of it is read: its readiness (and a readyExpr over it) would tell a tenant
   * about another tenant's Kustomization.
   */
  private void rejectCrossNamespace(NamespacedName self, List<NamespacedName> dependencies) {
    if (!noCrossNamespaceRefs) {
      return;
    }
    for (NamespacedName key : dependencies) {
      if (!key.namespace().equals(self.namespace())) {
        throw StageFailure.terminal(Reason.ACCESS_DENIED, "cross-namespace references are not allowed: "
            + "dependsOn Kustomization '" + key + "' is not in namespace '" + self.namespace() + "'");
      }
    }
  }

  private void rejectCycle(NamespacedName self) {
    Map<NamespacedName, List<NamespacedName>> edges = new LinkedHashMap<>();
    for (Kustomization ks : view.kustomizations()) {
      edges.put(NamespacedName.of(ks), dependencies(ks));
    }
    Optional<List<NamespacedName>> cycle = new DependencyGraph(edges).cycleThrough(self);
    if (cycle.isPresent()) {
      throw StageFailure.terminal(
          Reason.DEPENDENCY_CYCLE, "dependency cycle: " + DependencyGraph.describe(cycle.get()));
    }
  }

  private ReadyExpression expression(String source, int index) {
    if (source == null || source.isBlank()) {
      return null;
    }
    try {
      return expressions.computeIfAbsent(source, ReadyExpression::compile);
    } catch (ReadyExpression.InvalidExpressionException e) {
      throw StageFailure.terminal(
          Reason.INVALID_CEL_EXPRESSION, "spec.dependsOn[" + index + "].readyExpr: " + e.getMessage());
    }
  }

  private Optional<String> sourceRevision(Kustomization dependency) {
    var ref = dependency.getSpec() == null ? null : dependency.getSpec().sourceRef();
    if (ref == null) {
      return Optional.empty();
    }
    NamespacedName key =
        NamespacedName.resolve(ref.namespace(), ref.name(), dependency.getMetadata().getNamespace());
    return view.gitRepository(key)
        .map(repo -> repo.getStatus() == null || repo.getStatus().artifact() == null
            ? null
            : repo.getStatus().artifact().revision());
  }

  private Map<String, Object> asMap(Kustomization ks) {
    return mapper.convertValue(ks, MAP);
  }
}
