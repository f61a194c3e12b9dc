package dev.capstan.engine.helmrelease;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capstan.api.helm.HelmRelease;
import dev.capstan.api.helm.HelmReleaseStatus;
import dev.capstan.api.helm.HelmReleaseStatus.ReleaseAction;
import dev.capstan.api.helm.ReleaseSnapshot;
import dev.capstan.applier.inventory.InventorySet;
import dev.capstan.engine.conditions.ReleaseObservation.ReleasePhase;
import dev.capstan.engine.conditions.ReleaseObservation.Remediated;
import dev.capstan.engine.conditions.ReleaseObservation.WaitFailed;
import dev.capstan.engine.conditions.ReleaseReason;
import dev.capstan.helm.release.Release;
import dev.capstan.helm.release.ReleaseHistory;
import dev.capstan.helm.release.ReleaseRecord;
import dev.capstan.helm.release.ReleaseStatus;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The stages that follow a failed install or upgrade, as Flux's helm-controller runs them: the end
 * of a wait whose objects did not become healthy (the release failed), a rollback to the last
 * deployed release (its stored manifest re-applied, what the failed version added pruned) and an
 * uninstall of the failed release. Each returns what its status shows; none writes the status.
 */
final class ReleaseRemediation {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The actions of a remediation's snapshot, as Flux names them in {@code status.history}. */
  private static final String ROLLBACK = "rollback";

  private static final String UNINSTALL_REMEDIATION = "uninstall-remediation";

  private final RemediationRecords records;
  private final ReleaseApply apply;
  private final ReleaseUninstall uninstall;

  ReleaseRemediation(RemediationRecords records, ReleaseApply apply, ReleaseUninstall uninstall) {
    this.records = records;
    this.apply = apply;
    this.uninstall = uninstall;
  }

  /**
   * What a remediation did.
   *
   * @param phase how its status reads
   * @param released the record it wrote, as a snapshot; null for none
   * @param inventory the objects of the release now in the cluster
   */
  record Done(ReleasePhase phase, ReleaseSnapshot released, InventorySet inventory) {}

  /**
   * The wait for the objects of {@code latest}, deployed by an install or upgrade ({@code
   * upgrade}), ended unhealthy with {@code error} (naming the objects): the release failed. Its
   * values' digest is {@code configDigest}.
   */
  Done waitFailed(
      HelmRelease release,
      ReleaseRecord latest,
      ReleaseHistory history,
      boolean upgrade,
      String error,
      InventorySet inventory,
      String configDigest) {
    Release failed = records.waitFailed(latest, history, upgrade, error);
    String message =
        "Helm "
            + (upgrade ? "upgrade" : "install")
            + " failed for release "
            + ReleaseRecording.where(failed)
            + " with chart "
            + chartOf(failed)
            + ": "
            + error;
    ReleaseReason reason = upgrade ? ReleaseReason.UPGRADE_FAILED : ReleaseReason.INSTALL_FAILED;
    ReleaseAction action = upgrade ? ReleaseAction.upgrade : ReleaseAction.install;
    return new Done(
        new WaitFailed(reason, message),
        ReleaseRecording.snapshot(failed, action, configDigest),
        inventory);
  }

  /**
   * A new version re-applying the last deployed record's manifest and values, as {@code helm
   * rollback} makes it; what {@code current} holds beyond it is pruned.
   */
  Done rollback(HelmRelease release, ReleaseHistory history, InventorySet current) {
    ReleaseRecord target = rollbackTarget(history).orElseThrow();
    Release to = target.release();
    String what =
        "Helm rollback to previous release "
            + ReleaseRecording.where(to)
            + " with chart "
            + chartOf(to);
    RemediationRecords.PendingRollback pending = records.begin(release, history, target);
    String digest = configDigest(release, to);
    InventorySet inventory;
    try {
      List<GenericKubernetesResource> objects = ManifestObjects.of(to.manifest(), release);
      inventory = apply.apply(release, List.of(), objects, current, ReleaseReason.ROLLBACK_FAILED);
    } catch (ReleaseApply.Failed f) {
      return rollbackFailed(pending, what, f.getMessage(), f.inventory(), digest);
    } catch (RuntimeException e) {
      return rollbackFailed(pending, what, String.valueOf(e.getMessage()), current, digest);
    }
    Release done = records.rolledBack(pending, history);
    return new Done(
        new Remediated(ReleaseReason.ROLLBACK_SUCCEEDED, what + " succeeded", true),
        ReleaseRecording.snapshot(done, ROLLBACK, digest),
        inventory);
  }

  /**
   * The record a rollback goes back to: the last deployed one, or, when that is the latest (its
   * tests failed it), the one it replaced.
   */
  static Optional<ReleaseRecord> rollbackTarget(ReleaseHistory history) {
    Optional<ReleaseRecord> deployed = history.lastDeployed();
    if (deployed.isPresent() && deployed.equals(history.latest())) {
      return RemediationRecords.previous(history, deployed.get().release().version());
    }
    return deployed;
  }

  private Done rollbackFailed(
      RemediationRecords.PendingRollback pending,
      String what,
      String error,
      InventorySet inventory,
      String digest) {
    Optional<Release> failed = records.rollbackFailed(pending, error);
    return new Done(
        new Remediated(ReleaseReason.ROLLBACK_FAILED, what + " failed: " + error, false),
        failed.map(r -> ReleaseRecording.snapshot(r, ROLLBACK, digest)).orElse(null),
        inventory);
  }

  /** The failed release uninstalled, as {@code helm uninstall} does; its HelmChart kept. */
  Done uninstall(HelmRelease release, ReleaseHistory history, InventorySet current) {
    Release latest = history.latest().orElseThrow().release();
    String what =
        "Helm uninstall remediation for release "
            + ReleaseRecording.where(latest)
            + " with chart "
            + chartOf(latest);
    Optional<String> failed = uninstall.uninstall(release);
    if (failed.isPresent()) {
      return new Done(
          new Remediated(ReleaseReason.UNINSTALL_FAILED, what + " failed: " + failed.get(), false),
          null,
          current);
    }
    return new Done(
        new Remediated(ReleaseReason.UNINSTALL_SUCCEEDED, what + " succeeded", true),
        ReleaseRecording.snapshot(
            latest.withStatus(ReleaseStatus.UNINSTALLED),
            UNINSTALL_REMEDIATION,
            configDigest(release, latest)),
        InventorySet.EMPTY);
  }

  private static String chartOf(Release release) {
    return release.chart().name() + "@" + release.chart().version();
  }

  /**
   * The values digest {@code status.history} recorded for {@code record}'s version, else the digest
   * of the values the record holds (a snapshot requires one).
   */
  private static String configDigest(HelmRelease release, Release record) {
    HelmReleaseStatus status = release.getStatus();
    List<ReleaseSnapshot> history =
        status == null || status.history() == null ? List.of() : status.history();
    return history.stream()
        .filter(s -> s.version() != null && s.version() == record.version())
        .map(ReleaseSnapshot::configDigest)
        .filter(Objects::nonNull)
        .findFirst()
        .orElseGet(
            () ->
                ValuesDigest.of(
                    record.config() == null
                        ? Map.of()
                        : JSON.convertValue(
                            record.config(), new TypeReference<Map<String, Object>>() {})));
  }
}
