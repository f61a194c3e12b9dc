package dev.capstan.engine.kustomization;

import dev.capstan.api.kustomize.DeletionPolicy;
import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.kustomize.KustomizationSpec;
import dev.capstan.api.kustomize.KustomizationStatus;
import dev.capstan.applier.ResourceManager;
import dev.capstan.applier.common.ObjectResult;
import dev.capstan.applier.inventory.InventorySet;
import dev.capstan.engine.conditions.Phase;
import dev.capstan.engine.conditions.Reason;
import dev.capstan.engine.core.NamespacedName;
import dev.capstan.engine.dependencies.DeletionOrder;
import dev.capstan.engine.pipeline.Inventories;
import dev.capstan.engine.pipeline.ObjectFailures;
import dev.capstan.engine.remote.RemoteClusterException;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One look at a Kustomization being deleted. Nothing is watched for it any more; its objects are
 * deleted as its deletionPolicy says, but only once the Kustomizations being deleted that depend on
 * it are gone (reverse dependency order, {@link DeletionOrder}). A deletion its API server refuses
 * keeps the Kustomization, and is tried again.
 */
final class KustomizationDeletion {
  // Logged under the pipeline's name, as before its stages had classes of their own.
  private static final Logger LOG = LoggerFactory.getLogger(KustomizationPipeline.class);

  private final PipelineParts parts;
  private final DependencyGate gate;
  private final DependentsWait dependents;
  private final ActingIdentities identities;
  private final RetryCounter retries;
  private final StatusStage statusStage;

  KustomizationDeletion(
      PipelineParts parts,
      DependencyGate gate,
      DependentsWait dependents,
      ActingIdentities identities,
      RetryCounter retries,
      StatusStage statusStage) {
    this.parts = parts;
    this.gate = gate;
    this.dependents = dependents;
    this.identities = identities;
    this.retries = retries;
    this.statusStage = statusStage;
  }

  /** One look at {@code ks}: done (its finalizer may go), or when to look again. */
  Deletion delete(Kustomization ks) {
    NamespacedName key = NamespacedName.of(ks);
    parts.waits().forget(key);
    parts.tracking().untrack(key);
    gate.forget(key);
    KustomizationSpec spec = ks.getSpec();
    KustomizationStatus status = ks.getStatus();
    if (spec == null || status == null || status.inventory() == null || spec.suspended()) {
      return deleted(ks);
    }
    DeletionPolicy policy = spec.effectiveDeletionPolicy();
    if (!policy.deletesObjects(spec.pruneEnabled())) {
      return deleted(ks);
    }
    Optional<Deletion> notYet = inOrder(ks);
    if (notYet.isPresent()) {
      return notYet.get();
    }
    try {
      return deleteObjects(
          ks, policy.waitsForTermination() || dependents.dependencyBeingDeleted(ks));
    } catch (RemoteClusterException e) {
      // As Flux does, the deletion is not held up by a remote cluster that cannot be used.
      LOG.warn("{}: its objects on the remote cluster were not deleted: {}", key, e.getMessage());
      return deleted(ks);
    }
  }

  /**
   * Empty when the Kustomization's objects may be deleted now; otherwise when to look again. What
   * the user should know (a wait, or an order that could not be kept) goes on its status.
   */
  private Optional<Deletion> inOrder(Kustomization ks) {
    DeletionOrder.Verdict verdict = dependents.look(ks);
    if (verdict.waits()) {
      writeDeleting(ks, new Phase.Waiting(Reason.WAITING_FOR_DEPENDENTS, verdict.message()), null);
      return Optional.of(Deletion.again(parts.waitPoll()));
    }
    if (verdict.warning()) {
      LOG.warn("{}: {}", NamespacedName.of(ks), verdict.message());
      writeDeleting(
          ks, new Phase.Failed(Reason.DEPENDENTS_NOT_DELETED, verdict.message(), false), null);
    }
    return Optional.empty();
  }

  /**
   * Deletes the objects of the inventory. Refused deletions keep the Kustomization, with only those
   * objects in its inventory, and are tried again (as Flux does); objects whose deletion was
   * accepted but did not end within the timeout are reported and let go.
   */
  private Deletion deleteObjects(Kustomization ks, boolean waitForTermination) {
    NamespacedName key = NamespacedName.of(ks);
    parts.fence().check(ks);
    List<ObjectResult> results =
        identities
            .actingFor(ks)
            .pruner()
            .deleteInventory(
                Inventories.toApplier(ks.getStatus().inventory()),
                Applying.owner(key),
                parts.fence().bound(ks, Timings.forDeletion(ks.getSpec())),
                waitForTermination);
    List<ObjectResult> failed = results.stream().filter(ObjectResult::failed).toList();
    if (failed.isEmpty()) {
      return deleted(ks);
    }
    String message = "deleting its objects failed: " + ObjectFailures.describe(failed);
    if (failed.stream().allMatch(ResourceManager::stillTerminating)) {
      LOG.warn("{}: {}", key, message);
      writeDeleting(ks, new Phase.Failed(Reason.PRUNE_FAILED, message, false), null);
      return deleted(ks);
    }
    LOG.info("{}: {}; trying again", key, message);
    writeDeleting(
        ks,
        new Phase.Failed(Reason.PRUNE_FAILED, message, false),
        InventorySet.of(failed.stream().map(ObjectResult::ref).toList()));
    return Deletion.again(parts.backoff().delay(retries.failed(key), deletionRetryCap(ks)));
  }

  /** The retryInterval, or a minute when the spec's durations cannot be read. */
  private static Duration deletionRetryCap(Kustomization ks) {
    try {
      return Timings.of(ks.getSpec()).retryInterval();
    } catch (StageFailure e) {
      return Duration.ofMinutes(1);
    }
  }

  /** The deletion is done: everything kept for the Kustomization is let go. */
  private Deletion deleted(Kustomization ks) {
    NamespacedName key = NamespacedName.of(ks);
    dependents.forget(key);
    retries.reset(key);
    parts.statuses().forget(ks);
    parts.remotes().forget(key);
    return Deletion.DONE;
  }

  /** Says on the status of a Kustomization being deleted what its deletion waits for or met. */
  private void writeDeleting(Kustomization ks, Phase phase, InventorySet inventory) {
    Attempt attempt =
        Attempt.start(ks, parts.clock().instant(), parts.waits()).withInventory(inventory);
    try {
      statusStage.write(attempt, phase);
    } catch (KubernetesClientException e) {
      LOG.warn("{}: the status could not be written: {}", attempt.key(), e.getMessage());
    }
  }
}
