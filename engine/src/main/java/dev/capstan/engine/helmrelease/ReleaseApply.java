package dev.capstan.engine.helmrelease;

import dev.capstan.api.helm.HelmRelease;
import dev.capstan.applier.apply.ApplyPolicy;
import dev.capstan.applier.apply.ApplyRequest;
import dev.capstan.applier.apply.ApplyResult;
import dev.capstan.applier.common.Action;
import dev.capstan.applier.common.ObjectResult;
import dev.capstan.applier.common.Owner;
import dev.capstan.applier.inventory.InventorySet;
import dev.capstan.engine.conditions.ReleaseReason;
import dev.capstan.engine.helmrelease.ReleaseAdoption.Baseline;
import dev.capstan.engine.pipeline.Acting;
import dev.capstan.engine.pipeline.Inventories;
import dev.capstan.engine.pipeline.ObjectFailures;
import dev.capstan.kube.ApiErrors;
import dev.capstan.kube.ObjectRef;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A release's objects written with the applier's staged server-side apply (CRDs, then namespaces,
 * then the rest) and what the previous release had and this one has not pruned, as the
 * Kustomization pipeline applies and prunes; the objects are labelled as the HelmRelease's.
 */
final class ReleaseApply {
  private final Acting acting;
  private final ReleaseClaims claims;

  ReleaseApply(Acting acting, ReleaseClaims claims) {
    this.acting = acting;
    this.claims = claims;
  }

  /**
   * Field managers whose fields on a release's objects Capstan takes over before it applies, by
   * name prefix: Helm's own ({@code helm}) and Flux's helm-controller ({@code helm-controller}), so
   * that a field an adopted release's chart no longer sets is removed.
   */
  static final ApplyPolicy HELM_MANAGERS = new ApplyPolicy(Set.of(), List.of("helm"));

  /**
   * The objects owned by {@code release}: its labels name them, or Helm's ownership annotations
   * name its release on an object without them (one of a release it adopted).
   */
  static Owner owner(HelmRelease release) {
    return Owner.helmRelease(
        release.getMetadata().getName(),
        release.getMetadata().getNamespace(),
        releaseName(release));
  }

  static Owner.HelmReleaseName releaseName(HelmRelease release) {
    return new Owner.HelmReleaseName(release.releaseName(), release.releaseNamespace());
  }

  /** {@link #apply(HelmRelease, List, List, InventorySet, Baseline, ReleaseReason)} of nothing. */
  InventorySet apply(
      HelmRelease release,
      List<GenericKubernetesResource> crds,
      List<GenericKubernetesResource> objects,
      InventorySet previous,
      ReleaseReason failure) {
    return apply(release, crds, objects, previous, Baseline.NONE, failure);
  }

  /**
   * Writes the chart's {@code crds} (outside the inventory), applies {@code objects} and prunes
   * what {@code previous} holds beyond them, and what a {@code baseline} of another client's has;
   * returns the inventory now in the cluster. Ownership is checked before, by {@link
   * #checkOwnership}.
   *
   * @throws ReleaseFailure with {@code failure}, its inventory what may be in the cluster
   */
  InventorySet apply(
      HelmRelease release,
      List<GenericKubernetesResource> crds,
      List<GenericKubernetesResource> objects,
      InventorySet previous,
      Baseline baseline,
      ReleaseReason failure) {
    Set<ObjectRef> rendered = ReleaseAdoption.refs(objects, release.releaseNamespace());
    writeCrds(release, crds, previous, failure);
    ApplyRequest request = request(release, objects, previous);
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
    prune(release, pruneFrom(previous, baseline, rendered), result.inventory(), failure);
    return result.inventory();
  }

  /**
   * What the prune after an apply of {@code rendered} starts from: {@code previous}, and what a
   * {@code baseline} of another client's has beyond {@code rendered}. What of it the applied
   * inventory has not is deleted.
   */
  static InventorySet pruneFrom(InventorySet previous, Baseline baseline, Set<ObjectRef> rendered) {
    List<ObjectRef> dropped =
        baseline.foreign() ? ReleaseAdoption.dropped(baseline.refs(), rendered) : List.of();
    return Inventories.union(previous, dropped);
  }

  /**
   * The request that applies {@code objects} of {@code release} over {@code previous}, every field
   * of the chart's: {@code spec.driftDetection.ignore} counts only in the look for drift, never in
   * an install, upgrade or rollback (so a chart's new value of an ignored field is applied).
   */
  static ApplyRequest request(
      HelmRelease release, List<GenericKubernetesResource> objects, InventorySet previous) {
    return ApplyRequest.of(objects, owner(release))
        .withForce(Boolean.TRUE.equals(release.getSpec().effectiveUpgrade().force()))
        .withTimeout(release.getSpec().effectiveTimeout())
        .withDefaultNamespace(release.releaseNamespace())
        .withFirstApply(previous.entries().isEmpty())
        .withPolicy(HELM_MANAGERS);
  }

  /**
   * With taking ownership disabled, objects an install or upgrade creates that exist and belong to
   * no release or another one refuse it, by name, as Helm refuses before it writes a release
   * record: called before the record is begun, it fails the reconcile, not the release (no failure
   * counted, no remediation), which is tried again at the interval. A rollback is not checked.
   *
   * @throws ReleaseFailure naming the objects refused, or why they could not be read
   */
  void checkOwnership(
      HelmRelease release,
      List<GenericKubernetesResource> objects,
      Baseline baseline,
      boolean upgrade) {
    if (takesOwnership(release, upgrade)) {
      return;
    }
    ReleaseReason reason = upgrade ? ReleaseReason.UPGRADE_FAILED : ReleaseReason.INSTALL_FAILED;
    Set<ObjectRef> rendered = ReleaseAdoption.refs(objects, release.releaseNamespace());
    Set<ObjectRef> added =
        ReleaseAdoption.added(rendered, baseline.refs()).stream()
            .map(ObjectRef::withoutVersion)
            .collect(Collectors.toSet());
    Optional<String> refused;
    try {
      refused = claims.refused(objects, added, release.releaseNamespace(), releaseName(release));
    } catch (KubernetesClientException e) {
      throw ReleaseFailure.failed(
          reason, "reading the objects the release creates failed: " + ApiErrors.refusal(e));
    }
    if (refused.isPresent()) {
      throw ReleaseFailure.failed(reason, refused.get());
    }
  }

  /** Whether the action may take existing objects: Flux's {@code disableTakeOwnership} unset. */
  private static boolean takesOwnership(HelmRelease release, boolean upgrade) {
    Boolean disabled =
        upgrade
            ? release.getSpec().effectiveUpgrade().disableTakeOwnership()
            : release.getSpec().effectiveInstall().disableTakeOwnership();
    return !Boolean.TRUE.equals(disabled);
  }

  /**
   * The chart's CRDs, written as Helm writes them: before the release's objects, waited on until
   * Established, and kept in no inventory, so nothing ever prunes them.
   */
  void writeCrds(
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
