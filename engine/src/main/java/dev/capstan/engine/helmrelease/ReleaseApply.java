package dev.capstan.engine.helmrelease;

import dev.capstan.api.helm.HelmRelease;
import dev.capstan.applier.apply.ApplyRequest;
import dev.capstan.applier.apply.ApplyResult;
import dev.capstan.applier.common.Action;
import dev.capstan.applier.common.ObjectResult;
import dev.capstan.applier.common.Owner;
import dev.capstan.applier.inventory.InventorySet;
import dev.capstan.engine.conditions.ReleaseReason;
import dev.capstan.engine.pipeline.Acting;
import dev.capstan.engine.pipeline.Inventories;
import dev.capstan.engine.pipeline.ObjectFailures;
import dev.capstan.kube.ObjectRef;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.List;

/**
 * A release's objects written with the applier's staged server-side apply (CRDs, then namespaces,
 * then the rest) and what the previous release had and this one has not pruned, as the
 * Kustomization pipeline applies and prunes; the objects are labelled as the HelmRelease's.
 */
final class ReleaseApply {
  private final Acting acting;

  ReleaseApply(Acting acting) {
    this.acting = acting;
  }

  /** The objects owned by {@code release}: its labels name it. */
  static Owner owner(HelmRelease release) {
    return Owner.helmRelease(release.getMetadata().getName(), release.getMetadata().getNamespace());
  }

  /**
   * Writes the chart's {@code crds} (outside the inventory), applies {@code objects} and prunes
   * what {@code previous} holds beyond them; returns the inventory now in the cluster.
   *
   * @throws ReleaseFailure with {@code failure}, its inventory what may be in the cluster
   */
  InventorySet apply(
      HelmRelease release,
      List<GenericKubernetesResource> crds,
      List<GenericKubernetesResource> objects,
      InventorySet previous,
      ReleaseReason failure) {
    writeCrds(release, crds, previous, failure);
    ApplyRequest request =
        ApplyRequest.of(objects, owner(release))
            .withForce(Boolean.TRUE.equals(release.getSpec().effectiveUpgrade().force()))
            .withTimeout(release.getSpec().effectiveTimeout())
            .withDefaultNamespace(release.releaseNamespace())
            .withFirstApply(previous.entries().isEmpty());
    ApplyResult result;
    try {
      result = acting.applier().apply(request);
    } catch (KubernetesClientException e) {
      throw new Failed(failure, "apply failed: " + e.getMessage(), previous);
    }
    if (!result.succeeded()) {
      List<ObjectRef> written =
          result.objects().stream()
              .filter(r -> !r.failed() && r.action() != Action.SKIPPED)
              .map(ObjectResult::ref)
              .toList();
      throw new Failed(
          failure,
          "apply failed: " + ObjectFailures.describe(result.failures()),
          Inventories.union(previous, written));
    }
    prune(release, previous, result.inventory(), failure);
    return result.inventory();
  }

  /**
   * The chart's CRDs, written as Helm writes them: before the release's objects, waited on until
   * Established, and kept in no inventory, so nothing ever prunes them.
   */
  private void writeCrds(
      HelmRelease release,
      List<GenericKubernetesResource> crds,
      InventorySet previous,
      ReleaseReason failure) {
    if (crds.isEmpty()) {
      return;
    }
    ApplyRequest request =
        ApplyRequest.of(crds, owner(release)).withTimeout(release.getSpec().effectiveTimeout());
    ApplyResult result;
    try {
      result = acting.applier().apply(request);
    } catch (KubernetesClientException e) {
      throw new Failed(failure, "the chart's CRDs failed: " + e.getMessage(), previous);
    }
    if (!result.succeeded()) {
      throw new Failed(
          failure,
          "the chart's CRDs failed: " + ObjectFailures.describe(result.failures()),
          previous);
    }
  }

  private void prune(
      HelmRelease release, InventorySet previous, InventorySet current, ReleaseReason failure) {
    List<ObjectResult> failures =
        acting
            .pruner()
            .prune(previous, current, owner(release), release.getSpec().effectiveTimeout())
            .stream()
            .filter(ObjectResult::failed)
            .toList();
    if (!failures.isEmpty()) {
      throw new Failed(
          failure,
          "prune failed: " + ObjectFailures.describe(failures),
          Inventories.union(current, failures.stream().map(ObjectResult::ref).toList()));
    }
  }

  /** An apply or prune that failed, and the objects that may be in the cluster after it. */
  static final class Failed extends RuntimeException {
    private final ReleaseReason reason;
    private final transient InventorySet inventory;

    Failed(ReleaseReason reason, String message, InventorySet inventory) {
      super(message, null, false, false);
      this.reason = reason;
      this.inventory = inventory;
    }

    ReleaseReason reason() {
      return reason;
    }

    InventorySet inventory() {
      return inventory;
    }
  }
}
