package dev.capstan.engine.pipeline;

import dev.capstan.api.kustomize.Inventory;
import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.engine.NamespacedName;
import dev.capstan.engine.conditions.Drift;
import dev.capstan.engine.decryption.Plaintexts;
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

  /** The objects now in the cluster, when a stage changed them. */
  Inventory inventory;

  /** The health of the objects waited for, when evaluated. */
  AggregateHealth health;

  /** The drift the apply found (reported in warn mode), when the apply ran to its end. */
  Drift drift;

  /** What this attempt decrypted, to be kept out of its messages. */
  Plaintexts plaintexts = Plaintexts.NONE;

  Attempt(Kustomization object, Instant started) {
    this.object = object;
    this.key = NamespacedName.of(object);
    Long gen = object.getMetadata().getGeneration();
    this.generation = gen == null ? 0 : gen;
    Map<String, String> annotations = object.getMetadata().getAnnotations();
    this.requestedAt =
        annotations == null ? null : annotations.get(KustomizationPipeline.REQUESTED_AT);
    this.started = started;
  }

  String namespace() {
    return key.namespace();
  }
}
