package dev.capstan.engine.pipeline;

import dev.capstan.api.kustomize.Inventory;
import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.decryption.Plaintexts;
import dev.capstan.engine.NamespacedName;
import dev.capstan.engine.conditions.Drift;
import dev.capstan.engine.remote.RemoteClusters;
import dev.capstan.health.AggregateHealth;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * One reconcile of one Kustomization, as it goes through the stages. Not shared between threads.
 */
final class Attempt {
  final Kustomization object;
  final NamespacedName key;
  final long generation;
  final String requestedAt;
  final Instant started;

  /** Changes of the Kustomization's ConfigMaps and Secrets seen before this attempt began. */
  final long configChanges;

  Timings timings;

  /**
   * Who applies, prunes and reads health: the engine, or the Kustomization's service account, in
   * the engine's cluster or in the remote cluster of spec.kubeConfig.
   */
  Acting acting;

  /** Who reads the Kustomization's own inputs (substituteFrom) in the engine's cluster. */
  Acting local;

  /** The remote cluster of spec.kubeConfig, if any. */
  Optional<RemoteClusters.Remote<Acting>> remote = Optional.empty();

  String revision;

  /** The artifact's origin revision, when its source records one. */
  String originRevision;

  /** The digest of the set built, once the build stage is done. */
  String digest;

  /** When the reconcile that applied began (this one, or the one whose wait this continues). */
  Instant since;

  /** The objects now in the cluster, when a stage changed them. */
  Inventory inventory;

  /** The health of the objects waited for, when evaluated. */
  AggregateHealth health;

  /** The drift the apply found (reported in warn mode), when the apply ran to its end. */
  Drift drift;

  /** What this attempt decrypted, to be kept out of its messages. */
  Plaintexts plaintexts = Plaintexts.NONE;

  Attempt(Kustomization object, Instant started, long configChanges) {
    this(object, generationOf(object), requestedAtOf(object), started, configChanges);
  }

  private Attempt(
      Kustomization object,
      long generation,
      String requestedAt,
      Instant started,
      long configChanges) {
    this.object = object;
    this.key = NamespacedName.of(object);
    this.generation = generation;
    this.requestedAt = requestedAt;
    this.started = started;
    this.since = started;
    this.configChanges = configChanges;
  }

  /**
   * The attempt whose wait {@code wait} is: the inputs it applied, what it built, who it acted as.
   */
  Attempt forWait(WaitTracker.PendingWait wait) {
    WaitTracker.Inputs inputs = wait.inputs();
    Attempt earlier =
        new Attempt(
            object, inputs.generation(), inputs.requestedAt(), started, inputs.configChanges());
    earlier.timings = timings;
    earlier.acting = acting;
    earlier.local = local;
    earlier.remote = remote;
    earlier.revision = inputs.revision();
    earlier.originRevision = wait.originRevision();
    earlier.digest = wait.digest();
    earlier.since = wait.started();
    return earlier;
  }

  /**
   * This attempt looks again at the wait {@code wait} of the same inputs: what it applied counts.
   */
  void continues(WaitTracker.PendingWait wait) {
    digest = wait.digest();
    originRevision = wait.originRevision();
    since = wait.started();
  }

  /** The inputs this attempt works from. */
  WaitTracker.Inputs inputs() {
    return new WaitTracker.Inputs(generation, revision, requestedAt, configChanges);
  }

  String namespace() {
    return key.namespace();
  }

  private static long generationOf(Kustomization object) {
    Long gen = object.getMetadata().getGeneration();
    return gen == null ? 0 : gen;
  }

  private static String requestedAtOf(Kustomization object) {
    Map<String, String> annotations = object.getMetadata().getAnnotations();
    return annotations == null ? null : annotations.get(KustomizationPipeline.REQUESTED_AT);
  }
}
