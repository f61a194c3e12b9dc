package dev.capstan.engine.helmrelease;

import dev.capstan.api.helm.HelmRelease;
import dev.capstan.api.helm.HelmReleaseDriftDetection;
import dev.capstan.api.kustomize.DriftDetection;
import dev.capstan.applier.apply.ApplyPolicy;
import dev.capstan.applier.apply.ApplyResult;
import dev.capstan.applier.apply.DriftPolicy;
import dev.capstan.applier.common.Action;
import dev.capstan.applier.common.ObjectResult;
import dev.capstan.applier.ignore.IgnoreRules;
import dev.capstan.applier.inventory.InventorySet;
import dev.capstan.decryption.Plaintexts;
import dev.capstan.engine.conditions.Drift;
import dev.capstan.engine.conditions.Drift.DriftedObject;
import dev.capstan.engine.conditions.ReleaseObservation.DriftCorrected;
import dev.capstan.engine.conditions.ReleaseObservation.DriftLookFailed;
import dev.capstan.engine.conditions.ReleaseObservation.DriftNotLooked;
import dev.capstan.engine.conditions.ReleaseObservation.DriftOff;
import dev.capstan.engine.conditions.ReleaseObservation.DriftReported;
import dev.capstan.engine.conditions.ReleaseObservation.DriftSeen;
import dev.capstan.engine.conditions.ReleaseObservation.HealthState;
import dev.capstan.engine.conditions.ReleaseReason;
import dev.capstan.engine.core.NamespacedName;
import dev.capstan.engine.kustomization.ApplySettings;
import dev.capstan.engine.pipeline.Acting;
import dev.capstan.engine.pipeline.ObjectFailures;
import dev.capstan.helm.release.ReleaseRecord;
import dev.capstan.kube.ObjectRef;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.List;
import java.util.Objects;
import java.util.Set;
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

  /**
   * A label or annotation that keeps one object of the release out of drift detection, with the
   * value {@code disabled}: Capstan's name, and Flux's, which charts and post-renderers written for
   * helm-controller already carry.
   */
  static final List<String> OPT_OUT_KEYS =
      List.of("helm.capstan.dev/driftDetection", "helm.toolkit.fluxcd.io/driftDetection");

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
      return new DriftNotLooked();
    }
    return mode == DriftDetection.Mode.warn
        ? new DriftReported(List.of())
        : new DriftCorrected(List.of(), List.of());
  }

  /**
   * Looks for drift in the objects of {@code deployed}, the release's latest record, whose objects
   * the inventory holds: a dry run of each compared with what is live, the ignore paths left out
   * (never the digest the release's apply wrote, which counts every field). In mode {@code enabled}
   * the objects found drifted are then applied again, their ignored fields kept as live.
   *
   * @param secrets values from Secrets, kept out of the log
   */
  DriftSeen look(
      HelmRelease release, ReleaseRecord deployed, InventorySet inventory, Plaintexts secrets) {
    DriftDetection.Mode mode = release.getSpec().driftDetectionMode();
    if (mode == DriftDetection.Mode.disabled) {
      return new DriftOff();
    }
    NamespacedName name = NamespacedName.of(release);
    List<GenericKubernetesResource> objects;
    try {
      objects = ManifestObjects.of(deployed.release().manifest(), release);
    } catch (IllegalArgumentException e) {
      LOG.warn("{}: drift not looked for: {}", name, e.getMessage());
      return new DriftLookFailed(
          "drift not known: the manifest of release version "
              + deployed.release().version()
              + " could not be read");
    }
    objects = objects.stream().filter(o -> !optedOut(o)).toList();
    if (objects.isEmpty()) {
      return notLooked(release, true);
    }
    IgnoreRules ignore = ignoreRules(release);
    ApplyResult result;
    try {
      result =
          acting
              .applier()
              .apply(
                  ReleaseApply.request(release, objects, inventory)
                      .withFirstApply(false) // found by the release's labels, never written
                      .withIgnore(ignore)
                      .withDrift(new DriftPolicy(DriftPolicy.Mode.LOOK, Set.of()))
                      .withPolicy(ApplyPolicy.DEFAULT));
    } catch (KubernetesClientException e) {
      LOG.warn("{}: drift not looked for: {}", name, secrets.redact(e.getMessage()));
      return new DriftLookFailed(
          "drift not known: the API server could not be reached or refused a request");
    }
    List<ObjectResult> notCompared =
        result.objects().stream().filter(r -> r.failed() || r.action() == Action.SKIPPED).toList();
    if (!notCompared.isEmpty()) {
      LOG.warn(
          "{}: drift not looked for: {}",
          name,
          secrets.redact(ObjectFailures.describe(notCompared)));
      return new DriftLookFailed(notComparedMessage(notCompared));
    }
    List<ObjectResult> drifted =
        result.objects().stream().filter(r -> r.action() == Action.DRIFTED).toList();
    if (mode == DriftDetection.Mode.warn) {
      return reported(name, drifted);
    }
    return drifted.isEmpty()
        ? new DriftCorrected(List.of(), List.of())
        : correct(release, objects, inventory, ignore, drifted, secrets);
  }

  /** Whether the manifest's {@code object} opts out of drift detection (label or annotation). */
  static boolean optedOut(GenericKubernetesResource object) {
    return OPT_OUT_KEYS.stream()
        .anyMatch(
            key ->
                "disabled".equals(object.getMetadata().getLabels().get(key))
                    || "disabled".equals(object.getMetadata().getAnnotations().get(key)));
  }

  /**
   * The health look of a reconcile that has just corrected drift: the objects Capstan applied again
   * may still be rolling out, which is neither a timeout of the release's old deploy nor a wait
   * that could fail and remediate the release (Flux corrects with no wait). Such a look leaves
   * Healthy as it was; a look after no correction, or one finding the objects current or failed, is
   * as {@code health} says.
   */
  static ReleaseHealth.Look afterCorrection(DriftSeen drift, ReleaseHealth.Look health) {
    boolean corrected = corrected(drift);
    boolean rolling =
        health.state() == HealthState.IN_PROGRESS || health.state() == HealthState.TIMED_OUT;
    return corrected && rolling ? new ReleaseHealth.Look(null, null) : health;
  }

  /** Whether this reconcile applied drifted objects again. */
  static boolean corrected(DriftSeen drift) {
    return drift instanceof DriftCorrected c && !c.corrected().isEmpty();
  }

  /** The Drifted message of objects that could not be compared: their names, at most ten. */
  static String notComparedMessage(List<ObjectResult> notCompared) {
    List<String> names = notCompared.stream().map(r -> r.ref().toString()).sorted().toList();
    return "drift not known: "
        + names.size()
        + (names.size() == 1 ? " object" : " objects")
        + " could not be compared with the cluster: "
        + String.join(", ", names.subList(0, Math.min(10, names.size())))
        + (names.size() > 10 ? " and " + (names.size() - 10) + " more" : "");
  }

  private static DriftSeen reported(NamespacedName name, List<ObjectResult> results) {
    List<DriftedObject> drifted =
        results.stream()
            .map(r -> new DriftedObject(r.ref().toString(), what(r.reason()), r.fields()))
            .toList();
    if (!drifted.isEmpty()) {
      LOG.info("{}: drift detected: {}", name, Drift.reported(drifted).message());
    }
    return new DriftReported(drifted);
  }

  /** Applies again, in place, the objects the look found drifted. */
  private DriftSeen correct(
      HelmRelease release,
      List<GenericKubernetesResource> objects,
      InventorySet inventory,
      IgnoreRules ignore,
      List<ObjectResult> drifted,
      Plaintexts secrets) {
    List<GenericKubernetesResource> toApply =
        objects.stream().filter(o -> drifted.stream().anyMatch(r -> names(r, o, release))).toList();
    NamespacedName name = NamespacedName.of(release);
    ApplyResult result;
    try {
      result =
          acting
              .applier()
              .apply(
                  ReleaseApply.request(release, toApply, inventory)
                      .withFirstApply(false)
                      .withIgnore(ignore) // an ignored field keeps its live value
                      .withDrift(DriftPolicy.CORRECT));
    } catch (KubernetesClientException e) {
      LOG.warn("{}: drift not corrected: {}", name, secrets.redact(e.getMessage()));
      return new DriftCorrected(
          List.of(),
          drifted.stream()
              .map(r -> new DriftedObject(r.ref().toString(), "could not be applied again", null))
              .toList());
    }
    return corrected(name, drifted, result, secrets);
  }

  /**
   * Whether the look's result {@code r} is of {@code object}; a namespace-less ref is cluster's.
   */
  private static boolean names(ObjectResult r, GenericKubernetesResource object, HelmRelease hr) {
    ObjectRef ref = r.ref();
    String namespace = object.getMetadata().getNamespace();
    namespace = namespace == null || namespace.isEmpty() ? hr.releaseNamespace() : namespace;
    return Objects.equals(ref.kind(), object.getKind())
        && Objects.equals(ref.name(), object.getMetadata().getName())
        && (ref.namespace() == null || ref.namespace().equals(namespace));
  }

  private static DriftSeen corrected(
      NamespacedName name, List<ObjectResult> drifted, ApplyResult result, Plaintexts secrets) {
    List<DriftedObject> corrected =
        result.objects().stream()
            .filter(r -> r.action() == Action.CREATED || r.action() == Action.CONFIGURED)
            .map(r -> new DriftedObject(r.ref().toString(), how(drifted, r), List.of()))
            .toList();
    List<DriftedObject> failed =
        result.failures().stream()
            .map(r -> new DriftedObject(r.ref().toString(), "could not be applied again", null))
            .toList();
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
   * How a corrected object had drifted, as the look found it (a force-recreated object was not
   * deleted from the cluster: only the look says that).
   */
  private static String how(List<ObjectResult> drifted, ObjectResult applied) {
    return drifted.stream()
        .filter(d -> d.ref().withoutVersion().equals(applied.ref().withoutVersion()))
        .map(d -> what(d.reason()))
        .filter(w -> !w.isEmpty())
        .findFirst()
        .orElse("changed in the cluster");
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
