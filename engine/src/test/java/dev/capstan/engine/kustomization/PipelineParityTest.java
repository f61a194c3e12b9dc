package dev.capstan.engine.kustomization;

import static dev.capstan.engine.kustomization.PipelineFakes.kustomization;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.api.common.Snapshot;
import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.source.Artifact;
import dev.capstan.applier.apply.ApplyPolicy;
import dev.capstan.applier.apply.ApplyRequest;
import dev.capstan.engine.conditions.ConditionTypes;
import dev.capstan.engine.conditions.KustomizationStatuses;
import dev.capstan.engine.pipeline.Outcome;
import dev.capstan.kube.GroupKind;
import io.fabric8.kubernetes.api.model.Condition;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Flux 2.7–2.9 behaviour the pipeline carries: status.history and lastAppliedOriginRevision from
 * real reconciles, the engine's settings (strict substitution, apply policy) reaching the build and
 * the applier, and a field Capstan cannot honour refused.
 */
class PipelineParityTest {
  private PipelineFakes fakes = new PipelineFakes();

  @AfterEach
  void close() {
    fakes.close();
  }

  private void healthy() {
    fakes.live("Deployment/web", "ready");
    fakes.live("ConfigMap/settings", "ready");
  }

  @Test
  void eachReconcileIsCountedUnderTheDigestOfWhatItBuilt() {
    Kustomization ks = kustomization();
    healthy();
    fakes.pipeline.reconcile(ks);
    fakes.clock.advance(Duration.ofMinutes(10));
    fakes.pipeline.reconcile(ks);

    List<Snapshot> history = ks.getStatus().history();
    assertEquals(1, history.size());
    Snapshot entry = history.get(0);
    assertEquals("ReconciliationSucceeded", entry.lastReconciledStatus());
    assertEquals(2L, entry.totalReconciliations());
    assertTrue(entry.digest().matches("sha256:[0-9a-f]{64}"), entry.digest());
    assertEquals(Map.of("revision", fakes.revision()), entry.metadata());
    assertEquals("2026-01-01T00:00:00Z", entry.firstReconciled());
    assertEquals("2026-01-01T00:10:00Z", entry.lastReconciled());
  }

  @Test
  void aWaitThatTimesOutIsCountedAsHealthCheckFailedWithTheTimeItTook() {
    Kustomization ks = kustomization();
    fakes.live("Deployment/web", "rolling");
    fakes.live("ConfigMap/settings", "ready");
    fakes.pipeline.reconcile(ks);
    fakes.clock.advance(Duration.ofMinutes(5));
    fakes.pipeline.reconcile(ks);

    Snapshot entry = ks.getStatus().history().get(0);
    assertEquals("HealthCheckFailed", entry.lastReconciledStatus());
    assertEquals("5m0s", entry.lastReconciledDuration());
  }

  @Test
  void aBuildWithAnotherPathIsAnotherDigest() {
    Kustomization ks = kustomization();
    healthy();
    fakes.pipeline.reconcile(ks);
    Kustomization other =
        kustomization("path: ./vars", "wait: false", "postBuild: {substitute: {NAME: x}}");
    other.setStatus(ks.getStatus());
    fakes.pipeline.reconcile(other);

    List<Snapshot> history = other.getStatus().history();
    assertEquals(2, history.size());
    assertTrue(!history.get(0).digest().equals(history.get(1).digest()));
  }

  @Test
  void theOriginRevisionOfTheArtifactIsRecordedWhenApplied() {
    fakes.newArtifact(fakes.revision(), Map.of(Artifact.ORIGIN_REVISION, "v2.0.0@sha1:abc"));
    Kustomization ks = kustomization();
    healthy();
    fakes.pipeline.reconcile(ks);

    assertEquals("v2.0.0@sha1:abc", ks.getStatus().lastAppliedOriginRevision());
    assertEquals(
        "v2.0.0@sha1:abc", ks.getStatus().history().get(0).metadata().get("originRevision"));

    fakes.newArtifact(fakes.revision(), null);
    ks.getMetadata().setGeneration(2L);
    fakes.pipeline.reconcile(ks);
    assertNull(ks.getStatus().lastAppliedOriginRevision(), "a Git artifact names none");
  }

  @Test
  void aVariableWithoutValueFailsTheBuildNamingIt() {
    Kustomization ks = kustomization("path: ./vars", "postBuild: {substitute: {OTHER: x}}");

    assertEquals(Outcome.Kind.TRANSIENT, fakes.pipeline.reconcile(ks).kind());
    Condition ready = ready(ks);
    assertEquals("BuildFailed", ready.getReason());
    assertTrue(
        ready.getMessage().contains("variable not set (strict mode): \"NAME\""),
        ready.getMessage());
    assertTrue(fakes.applies.isEmpty());
  }

  @Test
  void withoutStrictSubstitutionAVariableWithoutValueIsEmpty() {
    fakes.close();
    fakes =
        new PipelineFakes(
            new PipelineSettings(false, true, ApplyPolicy.DEFAULT, GlobalAgeKeys.NONE));
    Kustomization ks =
        kustomization("path: ./vars", "wait: false", "postBuild: {substitute: {OTHER: x}}");

    assertEquals(Outcome.Kind.SUCCEEDED, fakes.pipeline.reconcile(ks).kind());
    @SuppressWarnings("unchecked")
    Map<String, Object> data =
        (Map<String, Object>)
            fakes.applies.get(0).objects().get(0).getAdditionalProperties().get("data");
    assertEquals("hello , here", data.get("text"));
  }

  @Test
  void theEngineApplyPolicyGoesWithEveryApply() {
    ApplyPolicy policy =
        new ApplyPolicy(Set.of(new GroupKind("rbac.authorization.k8s.io", "Role")), List.of("x"));
    fakes.close();
    fakes = new PipelineFakes(new PipelineSettings(true, true, policy, GlobalAgeKeys.NONE));
    healthy();
    fakes.pipeline.reconcile(kustomization());

    ApplyRequest request = fakes.applies.get(0);
    assertEquals(policy, request.policy());
  }

  @Test
  void aDecryptionServiceAccountIsRefusedAsCapstanHasNoKms() {
    Kustomization ks =
        kustomization("decryption: {provider: sops, serviceAccountName: kms-reader}");

    assertEquals(Outcome.Kind.TERMINAL, fakes.pipeline.reconcile(ks).kind());
    assertEquals("InvalidSpec", ready(ks).getReason());
    assertTrue(
        ready(ks).getMessage().startsWith("spec.decryption.serviceAccountName is not supported"),
        ready(ks).getMessage());
    assertTrue(fakes.applies.isEmpty());
  }

  private static Condition ready(Kustomization ks) {
    return KustomizationStatuses.condition(ks.getStatus(), ConditionTypes.READY).orElseThrow();
  }
}
