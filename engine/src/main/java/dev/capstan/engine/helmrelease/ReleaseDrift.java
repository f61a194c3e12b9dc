package dev.capstan.engine.helmrelease;

import dev.capstan.api.helm.HelmRelease;
import dev.capstan.api.helm.HelmReleaseDriftDetection;
import dev.capstan.api.kustomize.DriftDetection;
import dev.capstan.applier.apply.ApplyPolicy;
import dev.capstan.applier.apply.ApplyRequest;
import dev.capstan.applier.apply.ApplyResult;
import dev.capstan.applier.common.Action;
import dev.capstan.applier.ignore.IgnoreRules;
import dev.capstan.applier.inventory.InventorySet;
import dev.capstan.decryption.Plaintexts;
import dev.capstan.engine.conditions.Drift;
import dev.capstan.engine.conditions.Drift.DriftedObject;
import dev.capstan.engine.conditions.ReleaseObservation.DriftCorrected;
import dev.capstan.engine.conditions.ReleaseObservation.DriftOff;
import dev.capstan.engine.conditions.ReleaseObservation.DriftReported;
import dev.capstan.engine.conditions.ReleaseObservation.DriftSeen;
import dev.capstan.engine.conditions.ReleaseReason;
import dev.capstan.engine.core.NamespacedName;
import dev.capstan.engine.kustomization.ApplySettings;
import dev.capstan.engine.pipeline.Acting;
import dev.capstan.engine.pipeline.ObjectFailures;
import dev.capstan.helm.release.ReleaseRecord;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drift detection of an unchanged release ({@code spec.driftDetection}), as Flux's helm-controller
 * does it: the objects of the deployed record's manifest are compared with the cluster by the
 * applier (its ownership test, then a server-side apply dry run as field manager {@code capstan}),
 * the {@code ignore} paths left out. {@code warn} reports what another writer changed or deleted
 * and writes nothing; {@code enabled} applies those objects again (creating the deleted ones) in
 * place, with no new release record; {@code disabled} looks at nothing.
 */
final class ReleaseDrift {
  private static final Logger LOG = LoggerFactory.getLogger(ReleaseDrift.class);
  private static final String IGNORE_FIELD = "spec.driftDetection.ignore";

  private final Acting acting;

  ReleaseDrift(Acting acting) {
    this.acting = acting;
  }

  /**
   * The compiled {@code spec.driftDetection.ignore} rules; none while drift detection is disabled.
   *
   * @throws ReleaseFailure stalled, naming the rule and field that is wrong (never its text)
   */
  static IgnoreRules ignoreRules(HelmRelease release) {
    HelmReleaseDriftDetection detection = release.getSpec().driftDetection();
    if (release.getSpec().driftDetectionMode() == DriftDetection.Mode.disabled) {
      return IgnoreRules.NONE;
    }
    try {
      return ApplySettings.ignoreRules(detection.ignore(), IGNORE_FIELD);
    } catch (IllegalArgumentException e) {
      throw ReleaseFailure.stalled(ReleaseReason.INIT_FAILED, e.getMessage());
    }
  }

  /**
   * What a reconcile that did not look for drift says of it: no Drifted condition when disabled,
   * else the condition kept, or (after a release just applied in full) no drift.
   */
  static DriftSeen notLooked(HelmRelease release, boolean applied) {
    DriftDetection.Mode mode = release.getSpec().driftDetectionMode();
    if (mode == DriftDetection.Mode.disabled) {
      return new DriftOff();
    }
    if (!applied) {
      return null;
    }
    return mode == DriftDetection.Mode.warn
        ? new DriftReported(List.of())
        : new DriftCorrected(List.of(), List.of());
  }

  /**
   * Looks for drift in the objects of {@code deployed}, the release's latest record, whose objects
   * the inventory holds.
   *
   * @param secrets values from Secrets, kept out of the log
   */
  DriftSeen look(
      HelmRelease release, ReleaseRecord deployed, InventorySet inventory, Plaintexts secrets) {
    DriftDetection.Mode mode = release.getSpec().driftDetectionMode();
    if (mode == DriftDetection.Mode.disabled) {
      return new DriftOff();
    }
    List<GenericKubernetesResource> objects;
    try {
      objects = ManifestObjects.of(deployed.release().manifest(), release);
    } catch (IllegalArgumentException e) {
      LOG.warn("{}: drift not looked for: {}", NamespacedName.of(release), e.getMessage());
      return null;
    }
    boolean warn = mode == DriftDetection.Mode.warn;
    ApplyRequest request =
        ReleaseApply.request(release, objects, inventory)
            .withFirstApply(false) // objects are looked up by the release's labels, never written
            .withDrift(ApplySettings.driftPolicy(mode, true, inventory.refs()))
            .withPolicy(warn ? ApplyPolicy.DEFAULT : ReleaseApply.HELM_MANAGERS);
    ApplyResult result = acting.applier().apply(request);
    return warn ? reported(release, result) : corrected(release, result, secrets);
  }

  private static DriftSeen reported(HelmRelease release, ApplyResult result) {
    List<DriftedObject> drifted =
        result.objects().stream()
            .filter(r -> r.action() == Action.DRIFTED)
            .map(r -> new DriftedObject(r.ref().toString(), what(r.reason()), r.fields()))
            .toList();
    if (!drifted.isEmpty()) {
      LOG.info(
          "{}: drift detected: {}", NamespacedName.of(release), Drift.reported(drifted).message());
    }
    return new DriftReported(drifted);
  }

  private static DriftSeen corrected(HelmRelease release, ApplyResult result, Plaintexts secrets) {
    List<DriftedObject> corrected =
        result.objects().stream()
            .filter(r -> r.action() == Action.CREATED || r.action() == Action.CONFIGURED)
            .map(
                r ->
                    new DriftedObject(
                        r.ref().toString(),
                        r.action() == Action.CREATED
                            ? "deleted from the cluster"
                            : "changed in the cluster",
                        List.of()))
            .toList();
    List<DriftedObject> failed =
        result.failures().stream()
            .map(r -> new DriftedObject(r.ref().toString(), "could not be applied again", null))
            .toList();
    NamespacedName name = NamespacedName.of(release);
    if (!corrected.isEmpty()) {
      LOG.info("{}: drift corrected: {}", name, Drift.reported(corrected).message());
    }
    if (!failed.isEmpty()) {
      // the API server's words go to the log only: they may quote the object
      LOG.warn(
          "{}: drift not corrected: {}",
          name,
          secrets.redact(ObjectFailures.describe(result.failures())));
    }
    return new DriftCorrected(corrected, failed);
  }

  /**
   * How an object drifted when no field says it, without what the API server answered (which may
   * quote the object): {@code deleted from the cluster} or {@code could not be compared}.
   */
  private static String what(String reason) {
    if (reason == null) {
      return "";
    }
    int colon = reason.indexOf(':');
    return colon < 0 ? reason : reason.substring(0, colon);
  }
}
