package dev.capstan.engine.kustomization;

import dev.capstan.api.kustomize.KustomizationSpec;
import dev.capstan.engine.conditions.Reason;

/**
 * The first stage: the spec present and supported, its timings read, who acts for the Kustomization
 * in this cluster, and how it judges health.
 */
record Preparation(HealthEvaluators evaluators, ActingIdentities identities) {

  Attempt prepare(Attempt attempt) {
    KustomizationSpec spec = attempt.object().getSpec();
    if (spec == null) {
      throw StageFailure.terminal(Reason.INVALID_SPEC, "spec is missing");
    }
    refuseUnsupported(spec);
    return attempt.prepared(
        Timings.of(spec),
        identities.local(attempt.object()),
        evaluators.forExpressions(spec.healthCheckExprs()));
  }

  /**
   * Fields of Flux's API that Capstan accepts but cannot do what they ask: refused, never ignored.
   */
  private static void refuseUnsupported(KustomizationSpec spec) {
    if (spec.decryption() != null
        && spec.decryption().serviceAccountName() != null
        && !spec.decryption().serviceAccountName().isEmpty()) {
      throw StageFailure.terminal(
          Reason.INVALID_SPEC,
          "spec.decryption.serviceAccountName is not supported: Capstan has no cloud KMS"
              + " providers; decrypt with the age or OpenPGP keys of spec.decryption.secretRef");
    }
  }
}
