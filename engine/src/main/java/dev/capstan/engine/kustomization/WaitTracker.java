package dev.capstan.engine.kustomization;

import dev.capstan.applier.inventory.InventorySet;
import dev.capstan.engine.core.NamespacedName;
import dev.capstan.health.HealthEvaluator;
import dev.capstan.kube.ObjectRef;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Health waits in progress. A wait is not a blocked thread: the reconcile records it here and comes
 * back (on an event of a watched object, or after a short requeue) to look again. New input makes
 * the recorded wait stale: a new generation, revision or reconcile request, or a change of a
 * ConfigMap or Secret the Kustomization reads, which the watches report with {@link #inputChanged}.
 */
public final class WaitTracker {

  /**
   * What a reconcile worked from: the Kustomization's generation and reconcile request, the
   * source's revision, and how many changes of its ConfigMaps and Secrets had been seen.
   */
  record Inputs(long generation, String revision, String requestedAt, long configChanges) {

    /** What is new in {@code newer}, the first of revision, spec, request and configuration. */
    Change changeTo(Inputs newer) {
      if (!Objects.equals(revision, newer.revision)) {
        return Change.REVISION;
      }
      if (generation != newer.generation) {
        return Change.SPEC;
      }
      if (!Objects.equals(requestedAt, newer.requestedAt)) {
        return Change.REQUEST;
      }
      return configChanges == newer.configChanges ? Change.NONE : Change.CONFIGURATION;
    }
  }

  /** What new input a reconcile sees, compared with the one a wait is for. */
  enum Change {
    NONE,
    REVISION,
    SPEC,
    REQUEST,
    CONFIGURATION
  }

  /**
   * One wait: for which inputs, on which objects, until when; and what was applied (the built set's
   * digest and the artifact's origin revision) since when.
   */
  record PendingWait(
      Inputs inputs,
      Instant deadline,
      List<ObjectRef> objects,
      InventorySet inventory,
      HealthEvaluator evaluator,
      Instant started,
      String digest,
      String originRevision) {}

  /** The changes of a Kustomization's ConfigMaps and Secrets seen so far, and the last one. */
  private record ConfigChanges(long count, String last) {}

  private final Map<NamespacedName, PendingWait> waits = new ConcurrentHashMap<>();
  private final Map<NamespacedName, ConfigChanges> changes = new ConcurrentHashMap<>();

  /** Whether a reconcile of {@code key} is waiting for its objects to become healthy. */
  public boolean isWaiting(NamespacedName key) {
    return waits.containsKey(key);
  }

  /**
   * A ConfigMap or Secret that {@code key} reads changed ({@code trigger} names it, e.g. {@code
   * ConfigMap/apps/settings}): a wait recorded before makes way for a reconcile with it.
   */
  public void inputChanged(NamespacedName key, String trigger) {
    changes.merge(
        key,
        new ConfigChanges(1, trigger),
        (old, one) -> new ConfigChanges(old.count + 1, trigger));
  }

  /** How many changes of its ConfigMaps and Secrets were reported for {@code key}. */
  long configChanges(NamespacedName key) {
    ConfigChanges seen = changes.get(key);
    return seen == null ? 0 : seen.count;
  }

  /** The ConfigMap or Secret whose change was reported last for {@code key}. */
  Optional<String> lastConfigChange(NamespacedName key) {
    return Optional.ofNullable(changes.get(key)).map(ConfigChanges::last);
  }

  Optional<PendingWait> get(NamespacedName key) {
    return Optional.ofNullable(waits.get(key));
  }

  void start(NamespacedName key, PendingWait wait) {
    waits.put(key, wait);
  }

  void finish(NamespacedName key) {
    waits.remove(key);
  }

  /** Drops everything kept for a deleted Kustomization. */
  void forget(NamespacedName key) {
    waits.remove(key);
    changes.remove(key);
  }
}
