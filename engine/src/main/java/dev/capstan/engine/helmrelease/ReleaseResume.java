package dev.capstan.engine.helmrelease;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.capstan.api.helm.HelmRelease;
import dev.capstan.api.helm.HelmReleaseStatus;
import dev.capstan.api.helm.HelmReleaseStatus.ReleaseAction;
import dev.capstan.api.kustomize.Inventory;
import dev.capstan.applier.inventory.InventorySet;
import dev.capstan.engine.pipeline.Inventories;
import dev.capstan.health.HealthEvaluator;
import dev.capstan.helm.release.Release;
import dev.capstan.helm.release.ReleaseHistory;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * An install or upgrade whose record waits for one of its hooks, gone on with by a later reconcile
 * from its record: its manifest is what was rendered, its chart's CRDs were written before its
 * first hook. Only while it is what would be released now: the same chart version, chart digest and
 * values, and the HelmRelease's spec unchanged since the run began (so its post-renderers and
 * commonMetadata, which the record does not keep, are the same); otherwise the record is left to be
 * marked failed, as any left pending is, and the new inputs are released.
 */
final class ReleaseResume {
  private ReleaseResume() {}

  /** The release waiting for a hook in {@code history}, when it may be gone on with. */
  static Optional<ReleaseRecording.Pending> of(
      HelmRelease release, ReleaseInputs.Inputs in, ReleaseHistory history) {
    return ReleaseRecording.waitingForHook(history).filter(p -> sameInputs(release, p, in));
  }

  /**
   * What the resumed run works with, its objects checked for ownership as a fresh run's are: an
   * object another client made while the run waited refuses it by name.
   *
   * @throws ReleaseFailure when the record's manifest cannot be read or an object is refused
   */
  static ReleaseRun.Work work(
      HelmRelease release,
      ReleaseInputs.Inputs in,
      ReleaseRecording.Pending pending,
      ReleaseHistory history,
      ReleaseApply apply,
      HealthEvaluator hooks) {
    boolean upgrade = pending.action() == ReleaseAction.upgrade;
    List<GenericKubernetesResource> objects;
    try {
      objects = ManifestObjects.of(pending.record().release().manifest(), release);
    } catch (IllegalArgumentException e) {
      throw ReleaseFailure.releaseFailed(ReleaseRecording.failureReason(pending), e.getMessage());
    }
    ReleaseAdoption.Baseline baseline = ReleaseWork.baseline(release, history, upgrade);
    apply.checkOwnership(release, objects, baseline, upgrade);
    return new ReleaseRun.Work(
        List.of(), objects, previous(release), baseline, in.configDigest(), hooks);
  }

  /**
   * Whether the waiting release was made of what is wanted now. The record keeps the chart version
   * and the values; the chart's digest and the generation the run began at are the status's last
   * attempt, which the reconcile that began (or last went on with) the run wrote.
   */
  static boolean sameInputs(
      HelmRelease release, ReleaseRecording.Pending pending, ReleaseInputs.Inputs in) {
    Release made = pending.record().release();
    HelmReleaseStatus status = release.getStatus();
    return status != null
        && in.chart().madeOf(made.chart().version())
        && Objects.equals(orEmpty(made.config()), ReleaseRecording.config(in.values()))
        && Objects.equals(status.lastAttemptedRevisionDigest(), in.chart().attemptedDigest())
        && Objects.equals(status.lastAttemptedGeneration(), release.getMetadata().getGeneration());
  }

  /** A record's values; Helm leaves empty ones out of the record, so none reads as empty. */
  private static JsonNode orEmpty(JsonNode config) {
    return config == null || config.isNull() ? JsonNodeFactory.instance.objectNode() : config;
  }

  private static InventorySet previous(HelmRelease release) {
    Inventory inventory = release.getStatus() == null ? null : release.getStatus().inventory();
    return Inventories.toApplier(inventory);
  }
}
