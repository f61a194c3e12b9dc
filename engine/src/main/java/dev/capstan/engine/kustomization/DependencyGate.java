package dev.capstan.engine.kustomization;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capstan.api.helm.HelmRelease;
import dev.capstan.api.kustomize.DependencyReference;
import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.applier.apply.ResourceType;
import dev.capstan.engine.conditions.Reason;
import dev.capstan.engine.core.NamespacedName;
import dev.capstan.engine.dependencies.DependencyCheck;
import dev.capstan.engine.dependencies.DependencyGraph;
import dev.capstan.engine.dependencies.DependencyLookup;
import dev.capstan.engine.dependencies.DependencyReadiness;
import dev.capstan.engine.dependencies.DependencyReferences;
import dev.capstan.engine.dependencies.DependencyWalk;
import dev.capstan.engine.dependencies.ObjectDependencies;
import dev.capstan.engine.dependencies.ObjectDependency;
import dev.capstan.engine.dependencies.ObjectDependencyCheck;
import dev.capstan.engine.dependencies.ReadyExpression;
import dev.capstan.engine.pipeline.ClusterView;
import dev.capstan.health.HealthEvaluator;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The dependsOn gate: a Kustomization goes ahead only when every dependency is ready. A cycle and
 * an invalid readyExpr are terminal; anything else not ready is a wait.
 *
 * <p>A dependency is a Kustomization (no kind, as in Flux), read from the controller's cache, or
 * any other object, read live as the Kustomization acts (its service account, if any); a
 * HelmRelease among them is followed for a cycle back through it ({@link DependencyWalk}). While it
 * waits for such objects, a watch on their kinds wakes it when one of them changes.
 */
final class DependencyGate {
  private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {};

  private final ClusterView view;
  private final ReferenceRules rules;
  private final DependencyWatching watching;
  private final ObjectMapper mapper = new ObjectMapper();
  private final Map<String, ReadyExpression> expressions = new ConcurrentHashMap<>();

  DependencyGate(ClusterView view, ReferenceRules rules, DependencyWatching watching) {
    this.view = view;
    this.rules = rules;
    this.watching = watching;
  }

  /**
   * Goes on only once what the attempt's Kustomization depends on is ready. dependsOn names objects
   * of the cluster the Kustomization lives in, as Flux's does.
   */
  void check(Attempt attempt) {
    ActingIdentity identity = attempt.identity();
    check(
        attempt.object(),
        new ObjectDependencies(identity.local().client(), identity.reader()),
        attempt.evaluator());
  }

  /**
   * @param reader reads other objects as the Kustomization acts
   * @param evaluator the Kustomization's health evaluator, which judges other objects
   */
  private void check(Kustomization ks, ObjectDependencies reader, HealthEvaluator evaluator) {
    NamespacedName self = NamespacedName.of(ks);
    List<DependencyReference> refs = ks.getSpec().dependsOn();
    if (refs == null || refs.isEmpty()) {
      watching.release(self);
      return;
    }
    rejectCrossNamespace(self, refs);
    rejectCycle(self);
    rejectCycleThroughHelmReleases(self, refs, reader);
    List<String> notReady = new ArrayList<>();
    Map<Integer, ObjectDependency> objects = new LinkedHashMap<>();
    for (int i = 0; i < refs.size(); i++) {
      DependencyReference ref = refs.get(i);
      if (DependencyReferences.isKustomization(ref)) {
        kustomization(ks, self, ref, expression(ref.readyExpr(), i)).ifPresent(notReady::add);
      } else {
        expression(ref.readyExpr(), i); // an invalid one is terminal before anything is read
        objects.put(i, DependencyReferences.object(ref, self.namespace()));
      }
    }
    notReady.addAll(objects(ks, self, refs, objects, reader, evaluator));
    if (!notReady.isEmpty()) {
      notReady.sort(null);
      throw StageFailure.waiting(Reason.DEPENDENCY_NOT_READY, String.join("; ", notReady));
    }
  }

  /** Forget what {@code key} waited for (it is deleted). */
  void forget(NamespacedName key) {
    watching.release(key);
  }

  private Optional<String> kustomization(
      Kustomization ks, NamespacedName self, DependencyReference ref, ReadyExpression expr) {
    NamespacedName key = NamespacedName.resolve(ref.namespace(), ref.name(), self.namespace());
    Optional<Kustomization> dependency = view.kustomization(key);
    DependencyReadiness readiness =
        DependencyCheck.check(
            key, dependency, dependency.flatMap(this::sourceRevision), expr, ks, this::asMap);
    return readiness.isReady() ? Optional.empty() : Optional.of(readiness.reason());
  }

  /**
   * The reasons the objects are not ready. The watch is set up before they are read, so that a
   * change right after the read still wakes the Kustomization; it is released once all are ready.
   */
  private List<String> objects(
      Kustomization ks,
      NamespacedName self,
      List<DependencyReference> refs,
      Map<Integer, ObjectDependency> objects,
      ObjectDependencies reader,
      HealthEvaluator evaluator) {
    Map<Integer, ObjectDependency> resolved = new LinkedHashMap<>();
    Map<Integer, Optional<ResourceType>> types = new LinkedHashMap<>();
    Set<DependencyWatching.Awaited> awaited = new HashSet<>();
    objects.forEach(
        (i, id) -> {
          Optional<ResourceType> type = reader.type(id);
          ObjectDependency scoped =
              type.isPresent() && !type.get().namespaced() ? id.clusterScoped() : id;
          resolved.put(i, scoped);
          types.put(i, type);
          type.ifPresent(
              t ->
                  awaited.add(
                      new DependencyWatching.Awaited(t, scoped.namespace(), scoped.name())));
        });
    if (awaited.isEmpty()) {
      watching.release(self);
    } else {
      watching.await(self, awaited, reader.client());
    }
    List<String> notReady = new ArrayList<>();
    Map<String, Object> selfMap = objects.isEmpty() ? Map.of() : asMap(ks);
    resolved.forEach(
        (i, id) -> {
          DependencyLookup lookup =
              types.get(i).map(t -> reader.read(id, t)).orElseGet(DependencyLookup.NotServed::new);
          DependencyReadiness readiness =
              ObjectDependencyCheck.check(
                  id, lookup, evaluator, expression(refs.get(i).readyExpr(), i), selfMap);
          if (!readiness.isReady()) {
            notReady.add(readiness.reason());
          }
        });
    if (notReady.isEmpty()) {
      watching.release(self);
    }
    return notReady;
  }

  /**
   * With cross-namespace references forbidden, a dependency in another namespace is refused before
   * anything of it is read: its readiness (and a readyExpr over it) would tell a tenant about
   * another tenant's objects.
   */
  private void rejectCrossNamespace(NamespacedName self, List<DependencyReference> refs) {
    Optional<String> refused = rules.dependsOnRefusal(self, refs);
    if (refused.isPresent()) {
      throw StageFailure.terminal(Reason.ACCESS_DENIED, refused.get());
    }
  }

  private void rejectCycle(NamespacedName self) {
    Optional<List<NamespacedName>> cycle =
        new DependencyGraph<>(reachableFrom(self)).cycleThrough(self);
    if (cycle.isPresent()) {
      throw StageFailure.terminal(
          Reason.DEPENDENCY_CYCLE, "dependency cycle: " + DependencyGraph.describe(cycle.get()));
    }
  }

  /**
   * The dependsOn edges of the cached Kustomizations that {@code self} reaches: a cycle through it
   * has no other member. Each reconcile reads its own chain, not every Kustomization of the cache
   * (which made every wave of n Kustomizations read n times n).
   */
  private Map<NamespacedName, List<NamespacedName>> reachableFrom(NamespacedName self) {
    Map<NamespacedName, List<NamespacedName>> edges = new LinkedHashMap<>();
    Deque<NamespacedName> next = new ArrayDeque<>(List.of(self));
    while (!next.isEmpty()) {
      NamespacedName key = next.pop();
      if (!edges.containsKey(key)) {
        List<NamespacedName> deps =
            view.kustomization(key).map(DependencyReferences::kustomizations).orElse(List.of());
        edges.put(key, deps);
        next.addAll(deps);
      }
    }
    return edges;
  }

  /**
   * A cycle through HelmReleases (which may depend on Kustomizations in turn), followed live as the
   * Kustomization reads; only when it depends on a HelmRelease, the cache's Kustomizations being
   * enough otherwise.
   */
  private static void rejectCycleThroughHelmReleases(
      NamespacedName self, List<DependencyReference> refs, ObjectDependencies reader) {
    boolean helmReleases =
        refs.stream()
            .anyMatch(
                r ->
                    "HelmRelease".equals(r.kind())
                        && r.apiVersion() != null
                        && r.apiVersion().startsWith(HelmRelease.GROUP + "/"));
    if (!helmReleases) {
      return;
    }
    Optional<List<ObjectDependency>> cycle =
        DependencyWalk.cycleThrough(
            DependencyWalk.kustomization(self.namespace(), self.name()), reader::lookup);
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
          Reason.INVALID_CEL_EXPRESSION,
          "spec.dependsOn[" + index + "].readyExpr: " + e.getMessage());
    }
  }

  private Optional<String> sourceRevision(Kustomization dependency) {
    var ref = dependency.getSpec() == null ? null : dependency.getSpec().sourceRef();
    if (ref == null) {
      return Optional.empty();
    }
    NamespacedName key =
        NamespacedName.resolve(
            ref.namespace(), ref.name(), dependency.getMetadata().getNamespace());
    return view.gitRepository(key)
        .map(
            repo ->
                repo.getStatus() == null || repo.getStatus().artifact() == null
                    ? null
                    : repo.getStatus().artifact().revision());
  }

  private Map<String, Object> asMap(Kustomization ks) {
    return mapper.convertValue(ks, MAP);
  }
}
