package dev.capstan.engine.kustomization;

import dev.capstan.api.kustomize.DriftDetection;
import dev.capstan.api.kustomize.IgnoreRule;
import dev.capstan.api.kustomize.KustomizationSpec;
import dev.capstan.applier.apply.DriftPolicy;
import dev.capstan.applier.ignore.IgnoreRules;
import dev.capstan.kube.ObjectRef;
import java.util.Collection;
import java.util.List;
import java.util.Set;

/**
 * Turns a Kustomization's spec (and a HelmRelease's {@code driftDetection}) into the applier's
 * settings for ignored fields and drift.
 */
public final class ApplySettings {
  private ApplySettings() {}

  /**
   * The compiled {@code spec.ignore} rules.
   *
   * @throws IllegalArgumentException naming the rule and field that is wrong (never its text)
   */
  public static IgnoreRules ignoreRules(KustomizationSpec spec) {
    return ignoreRules(spec.ignore(), "spec.ignore");
  }

  /**
   * The compiled ignore {@code rules} of the spec's {@code field} (a Kustomization's {@code
   * spec.ignore}, a HelmRelease's {@code spec.driftDetection.ignore}).
   *
   * @throws IllegalArgumentException naming the rule and field that is wrong (never its text)
   */
  public static IgnoreRules ignoreRules(List<IgnoreRule> rules, String field) {
    if (rules == null || rules.isEmpty()) {
      return IgnoreRules.NONE;
    }
    return IgnoreRules.compile(
        rules.stream()
            .map(
                r ->
                    r == null
                        ? null
                        : new IgnoreRules.Rule(r.paths(), BuildSettings.selector(r.target())))
            .toList(),
        field);
  }

  /**
   * The drift policy of {@code spec.driftDetection}. Drift is only looked for in what was applied
   * at this revision and spec: after a change of either, an object of the inventory that is missing
   * is created again in every mode.
   *
   * @param sameRevision the revision and generation are those of the last successful apply
   * @param applied the inventory: the objects applied before
   */
  static DriftPolicy driftPolicy(
      KustomizationSpec spec, boolean sameRevision, Collection<ObjectRef> applied) {
    return driftPolicy(spec.driftDetectionMode(), sameRevision, applied);
  }

  /**
   * The drift policy of a {@code driftDetection} mode, for a Kustomization or a HelmRelease: see
   * {@link #driftPolicy(KustomizationSpec, boolean, Collection)}.
   */
  public static DriftPolicy driftPolicy(
      DriftDetection.Mode detection, boolean sameRevision, Collection<ObjectRef> applied) {
    DriftPolicy.Mode mode =
        switch (detection) {
          case enabled -> DriftPolicy.Mode.CORRECT;
          case warn -> DriftPolicy.Mode.REPORT;
          case disabled -> DriftPolicy.Mode.IGNORE;
        };
    return mode == DriftPolicy.Mode.CORRECT || !sameRevision
        ? new DriftPolicy(mode, Set.of())
        : DriftPolicy.of(mode, applied);
  }

  /** Whether drift is reported ({@code warn}). */
  static boolean reportsDrift(KustomizationSpec spec) {
    return spec.driftDetectionMode() == DriftDetection.Mode.warn;
  }
}
