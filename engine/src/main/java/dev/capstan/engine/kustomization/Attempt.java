package dev.capstan.engine.kustomization;

import dev.capstan.api.kustomize.Inventory;
import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.kustomize.KustomizationStatus;
import dev.capstan.applier.apply.ApplyResult;
import dev.capstan.applier.inventory.InventorySet;
import dev.capstan.decryption.Plaintexts;
import dev.capstan.engine.conditions.Drift;
import dev.capstan.engine.core.NamespacedName;
import dev.capstan.engine.pipeline.Inventories;
import dev.capstan.health.AggregateHealth;
import dev.capstan.health.HealthEvaluator;
import io.soabase.recordbuilder.core.RecordBuilder;
import java.time.Instant;
import java.util.Map;

/**
 * One reconcile of one Kustomization, as far as its stages have taken it. Each stage hands the next
 * a new one with what it found; the status is written from the last.
 *
 * @param previous the objects the status names, as the reconcile found them
 * @param timings the spec's interval, retryInterval and timeout; null until read
 * @param identity who acts for the Kustomization; null until decided
 * @param evaluator how the Kustomization judges health (its healthCheckExprs); null until prepared
 * @param artifact the source's artifact in the engine's store; null until the source was reached
 * @param revision the source revision worked from; null until the source was reached
 * @param originRevision the artifact's origin revision, when its source records one
 * @param digest the digest of the set built, once the build stage is done
 * @param since when the reconcile that applied began (this one, or the one whose wait it continues)
 * @param inventory the objects now in the cluster, when a stage changed them; null otherwise
 * @param applied the apply's answers, once the apply ran to its end; null otherwise
 * @param health the health of the objects waited for, when evaluated
 * @param drift the drift the apply found (reported in warn mode), when the apply ran to its end
 * @param plaintexts what this attempt decrypted, to be kept out of its messages
 */
@RecordBuilder
record Attempt(
    Kustomization object,
    NamespacedName key,
    WaitTracker.Inputs inputs,
    Instant started,
    InventorySet previous,
    Timings timings,
    ActingIdentity identity,
    HealthEvaluator evaluator,
    ArtifactLookup.StoredArtifact artifact,
    String originRevision,
    String digest,
    Instant since,
    InventorySet inventory,
    ApplyResult applied,
    AggregateHealth health,
    Drift drift,
    Plaintexts plaintexts)
    implements AttemptBuilder.With {

  /**
   * A reconcile of {@code object} begun at {@code started}; {@code waits} says how many changes of
   * its ConfigMaps and Secrets were seen so far.
   */
  static Attempt start(Kustomization object, Instant started, WaitTracker waits) {
    NamespacedName key = NamespacedName.of(object);
    // Read before anything of the Kustomization's inputs: a change seen later is new input.
    long configChanges = waits.configChanges(key);
    KustomizationStatus status = object.getStatus();
    Inventory previous = status == null ? null : status.inventory();
    return AttemptBuilder.builder()
        .object(object)
        .key(key)
        .inputs(
            new WaitTracker.Inputs(
                generationOf(object), null, requestedAtOf(object), configChanges))
        .started(started)
        .previous(Inventories.toApplier(previous))
        .since(started)
        .plaintexts(Plaintexts.NONE)
        .build();
  }

  long generation() {
    return inputs.generation();
  }

  String requestedAt() {
    return inputs.requestedAt();
  }

  String revision() {
    return inputs.revision();
  }

  String namespace() {
    return key.namespace();
  }

  /** With the spec's timings read, who acts for it decided and how it judges health. */
  Attempt prepared(Timings newTimings, ActingIdentity newIdentity, HealthEvaluator newEvaluator) {
    return with(b -> b.timings(newTimings).identity(newIdentity).evaluator(newEvaluator));
  }

  /** With who acts for it completed (the remote cluster of spec.kubeConfig). */
  Attempt actingAs(ActingIdentity newIdentity) {
    return withIdentity(newIdentity);
  }

  /** With the source's artifact found: its revision is the one worked from. */
  Attempt sourced(ArtifactLookup.StoredArtifact found) {
    return with(
        b ->
            b.inputs(
                    new WaitTracker.Inputs(
                        inputs.generation(),
                        found.revision(),
                        inputs.requestedAt(),
                        inputs.configChanges()))
                .artifact(found)
                .originRevision(found.originRevision().orElse(null)));
  }

  /** With the set built: its digest, and what was decrypted for it. */
  Attempt built(String newDigest, Plaintexts newPlaintexts) {
    return with(b -> b.digest(newDigest).plaintexts(newPlaintexts));
  }

  /** With the apply done: its answers, the objects now in the cluster, and the drift it found. */
  Attempt applied(ApplyResult result, Drift newDrift) {
    return with(b -> b.applied(result).inventory(result.inventory()).drift(newDrift));
  }

  /** Counts in no history entry (a cancelled wait, as in Flux). */
  Attempt withoutDigest() {
    return withDigest(null);
  }

  /**
   * This attempt looks again at the wait {@code wait} of the same inputs: what it applied counts.
   */
  Attempt continuing(WaitTracker.PendingWait wait) {
    return with(b -> appliedIn(b, wait));
  }

  /**
   * The attempt whose wait {@code wait} is: the inputs it applied, what it built, who it acted as.
   */
  Attempt forWait(WaitTracker.PendingWait wait) {
    return with(
        b ->
            appliedIn(b.inputs(wait.inputs()), wait)
                .inventory(null)
                .applied(null)
                .health(null)
                .drift(null)
                .plaintexts(Plaintexts.NONE));
  }

  /** What the wait's attempt applied: its origin, its set, when it began, its objects. */
  private static AttemptBuilder appliedIn(AttemptBuilder attempt, WaitTracker.PendingWait wait) {
    return attempt
        .originRevision(wait.originRevision())
        .digest(wait.digest())
        .since(wait.started())
        .inventory(wait.inventory());
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
