package dev.capstan.engine.kustomization;

import dev.capstan.api.kustomize.KustomizationSpec;
import dev.capstan.api.kustomize.KustomizationStatus;
import dev.capstan.applier.apply.ApplyRequest;
import dev.capstan.applier.apply.ApplyResult;
import dev.capstan.applier.common.Action;
import dev.capstan.applier.common.ObjectResult;
import dev.capstan.applier.common.Owner;
import dev.capstan.applier.ignore.IgnoreRules;
import dev.capstan.engine.conditions.Drift;
import dev.capstan.engine.conditions.Reason;
import dev.capstan.engine.core.NamespacedName;
import dev.capstan.engine.pipeline.Inventories;
import dev.capstan.engine.pipeline.ObjectFailures;
import dev.capstan.engine.pipeline.PipelineObserver;
import dev.capstan.engine.shard.WriteFence;
import dev.capstan.kube.ObjectRef;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.List;
import java.util.Objects;

/**
 * The apply and prune stages: what an attempt writes to its cluster and deletes from it, each
 * asking the fence right before it starts and waiting no longer than the fence has left.
 */
record Applying(PipelineSettings settings, PipelineObserver observer, WriteFence fence) {

  /**
   * {@code before} with its set {@code built} and applied: the apply's answers, the objects now in
   * the cluster and the drift found.
   */
  Attempt apply(Attempt before, BuildStage.Built built) {
    Attempt attempt = before.built(built.digest(), built.plaintexts());
    ApplyResult result = applyObjects(attempt, built.objects());
    return attempt.applied(result, drift(attempt, result));
  }

  private ApplyResult applyObjects(Attempt attempt, List<GenericKubernetesResource> objects) {
    KustomizationSpec spec = attempt.object().getSpec();
    String namespace =
        spec.targetNamespace() == null || spec.targetNamespace().isEmpty()
            ? attempt.namespace()
            : spec.targetNamespace();
    ApplyRequest request =
        ApplyRequest.of(objects, owner(attempt.key()))
            .withForce(spec.forceEnabled())
            .withTimeout(attempt.timings().timeout())
            .withDefaultNamespace(namespace)
            .withIgnore(ignoreRules(spec))
            .withDrift(
                ApplySettings.driftPolicy(spec, appliedBefore(attempt), attempt.previous().refs()))
            .withPolicy(settings.applyPolicy())
            .withFirstApply(attempt.previous().entries().isEmpty());
    ApplyResult result;
    fence.check(attempt.object());
    // the apply's waits end by the fence's deadline, as known now
    request = request.withTimeout(fence.bound(attempt.object(), request.timeout()));
    try {
      result = attempt.identity().acting().applier().apply(request);
    } catch (KubernetesClientException e) {
      // Cut short (the API server went away, say): which objects were written is not known, so
      // the inventory stays as it was until the retry has applied the revision in full.
      throw StageFailure.transientFailure(Reason.APPLY_FAILED, "apply failed: " + e.getMessage())
          .after(attempt.withInventory(attempt.previous()));
    }
    if (!result.succeeded()) {
      List<ObjectRef> written =
          result.objects().stream()
              .filter(r -> !r.failed() && r.action() != Action.SKIPPED)
              .map(ObjectResult::ref)
              .toList();
      throw StageFailure.transientFailure(
              Reason.APPLY_FAILED, "apply failed: " + ObjectFailures.describe(result.failures()))
          .after(attempt.withInventory(Inventories.union(attempt.previous(), written)));
    }
    return result;
  }

  /** The compiled ignore rules; a rule that cannot be used stops the Kustomization. */
  private static IgnoreRules ignoreRules(KustomizationSpec spec) {
    try {
      return ApplySettings.ignoreRules(spec);
    } catch (IllegalArgumentException e) {
      throw StageFailure.terminal(Reason.INVALID_SPEC, e.getMessage());
    }
  }

  /** Whether the last successful apply was of this revision and this spec. */
  private static boolean appliedBefore(Attempt attempt) {
    KustomizationStatus status = attempt.object().getStatus();
    return status != null
        && Objects.equals(status.lastAppliedRevision(), attempt.revision())
        && Objects.equals(status.observedGeneration(), attempt.generation());
  }

  /** The drift the apply reported (warn mode), its messages kept free of decrypted content. */
  private static Drift drift(Attempt attempt, ApplyResult result) {
    if (!ApplySettings.reportsDrift(attempt.object().getSpec())) {
      return Drift.NOT_REPORTED;
    }
    return Drift.reported(
        result.objects().stream()
            .filter(r -> r.action() == Action.DRIFTED)
            .map(
                r ->
                    new Drift.DriftedObject(
                        r.ref().toString(), attempt.plaintexts().redact(r.reason()), r.fields()))
            .toList());
  }

  /** Prunes what left the source, and tells the observer what the apply and prune changed. */
  void prune(Attempt attempt) {
    int pruned = pruneObjects(attempt, attempt.applied());
    observer.objectsChanged(attempt.key(), changed(attempt.applied().objects()), pruned);
  }

  /** Returns how many objects were deleted. */
  private int pruneObjects(Attempt attempt, ApplyResult applied) {
    if (!attempt.object().getSpec().pruneEnabled()) {
      return 0;
    }
    fence.check(attempt.object());
    List<ObjectResult> results =
        attempt
            .identity()
            .acting()
            .pruner()
            .prune(
                attempt.previous(),
                applied.inventory(),
                owner(attempt.key()),
                fence.bound(attempt.object(), attempt.timings().timeout()));
    List<ObjectResult> failures = results.stream().filter(ObjectResult::failed).toList();
    if (!failures.isEmpty()) {
      throw StageFailure.transientFailure(
              Reason.PRUNE_FAILED, "prune failed: " + ObjectFailures.describe(failures))
          .after(
              attempt.withInventory(
                  Inventories.union(
                      applied.inventory(), failures.stream().map(ObjectResult::ref).toList())));
    }
    return (int) results.stream().filter(r -> r.action() == Action.DELETED).count();
  }

  static Owner owner(NamespacedName key) {
    return new Owner(key.name(), key.namespace());
  }

  private static int changed(List<ObjectResult> results) {
    return (int)
        results.stream()
            .filter(r -> r.action() == Action.CREATED || r.action() == Action.CONFIGURED)
            .count();
  }
}
