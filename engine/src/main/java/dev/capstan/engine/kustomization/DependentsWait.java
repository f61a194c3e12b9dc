package dev.capstan.engine.kustomization;

import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.engine.core.NamespacedName;
import dev.capstan.engine.dependencies.DeletionOrder;
import dev.capstan.engine.pipeline.ClusterView;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Whether a Kustomization being deleted waits for the Kustomizations that depend on it ({@link
 * DeletionOrder}, over the engine's cache of Kustomizations). The dependsOn of each is read as the
 * engine honours it ({@link ReferenceRules}: under {@code --no-cross-namespace-refs}, one in
 * another namespace holds nothing), and the wait is bounded by the deleting Kustomization's own
 * deletion timeout, counted from when the engine first saw it being deleted: what depends on it,
 * perhaps another tenant's, cannot make it longer.
 */
final class DependentsWait {
  /**
   * How long a Kustomization being deleted gives the Kustomizations that depend on it to be deleted
   * too, when they are not yet: those of a namespace, or of one {@code kubectl delete}, are marked
   * for deletion one after the other.
   */
  static final Duration SETTLE = Duration.ofSeconds(5);

  private final ClusterView view;
  private final ReferenceRules rules;
  private final Clock clock;

  /** When the engine first saw each Kustomization being deleted that it still deletes. */
  private final Map<NamespacedName, Instant> firstSeen = new ConcurrentHashMap<>();

  DependentsWait(ClusterView view, ReferenceRules rules, Clock clock) {
    this.view = view;
    this.rules = rules;
    this.clock = clock;
  }

  /** What {@code ks}, being deleted, does now: wait for its dependents, or delete its objects. */
  DeletionOrder.Verdict look(Kustomization ks) {
    NamespacedName key = NamespacedName.of(ks);
    Instant now = clock.instant();
    Instant first = firstSeen.computeIfAbsent(key, k -> now);
    return DeletionOrder.of(key, view.kustomizations(), rules::kustomizationsDependedOn)
        .verdict(Duration.between(first, now), SETTLE, Timings.forDeletion(ks.getSpec()));
  }

  /**
   * Whether a Kustomization {@code ks} depends on (as the rules honour it) is being deleted too:
   * then this one's objects must be gone, not only asked to go, before the dependency's are.
   */
  boolean dependencyBeingDeleted(Kustomization ks) {
    return rules.kustomizationsDependedOn(ks).stream()
        .map(view::kustomization)
        .flatMap(Optional::stream)
        .anyMatch(d -> d.getMetadata().getDeletionTimestamp() != null);
  }

  /** The deletion of {@code key} is done. */
  void forget(NamespacedName key) {
    firstSeen.remove(key);
  }
}
