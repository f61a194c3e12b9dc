package dev.capstan.engine.kustomization;

import static dev.capstan.engine.kustomization.PipelineFakes.kustomization;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.kustomize.KustomizationStatus;
import dev.capstan.applier.apply.ApplyPolicy;
import dev.capstan.engine.conditions.ConditionTypes;
import dev.capstan.engine.conditions.KustomizationStatuses;
import dev.capstan.engine.core.NamespacedName;
import dev.capstan.engine.pipeline.Outcome;
import io.fabric8.kubernetes.api.model.Condition;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * New input ends a health wait in progress (HealthCheckCanceled) and is reconciled in the same
 * call; with cancellation off the wait goes on, and the new input follows at once.
 */
class WaitCancellationTest {
  private static final String NEXT = "main@sha1:1111111111111111111111111111111111111111";

  private PipelineFakes fakes = new PipelineFakes();

  @AfterEach
  void close() {
    fakes.close();
  }

  /** A reconcile that applied and now waits: the Deployment rolls out. */
  private Kustomization waiting() {
    Kustomization ks = kustomization();
    fakes.live("Deployment/web", "rolling");
    fakes.live("ConfigMap/settings", "ready");
    assertEquals(Outcome.Kind.WAITING, fakes.pipeline.reconcile(ks).kind());
    assertEquals(1, fakes.applies.size());
    return ks;
  }

  @Test
  void aNewRevisionCancelsTheWaitAndIsAppliedInTheSameReconcile() {
    Kustomization ks = waiting();
    fakes.newArtifact(NEXT, null);

    Outcome outcome = fakes.pipeline.reconcile(ks);

    assertEquals(2, fakes.applies.size(), "the new revision was applied at once");
    assertEquals(Outcome.Kind.WAITING, outcome.kind(), "and its own wait began");
    Condition canceled = canceled();
    assertEquals("False", canceled.getStatus());
    assertEquals(
        "New reconciliation triggered by GitRepository/team/repo: new revision " + NEXT,
        canceled.getMessage());
    assertEquals(NEXT, ks.getStatus().lastAttemptedRevision());
  }

  @Test
  void aSpecChangeAReconcileRequestAndAChangedConfigMapEachCancelTheWait() {
    Kustomization ks = waiting();
    ks.getMetadata().setGeneration(2L);
    fakes.pipeline.reconcile(ks);
    assertEquals(
        "New reconciliation triggered by Kustomization/team/app: new generation 2",
        canceled().getMessage());

    ks.getMetadata().setAnnotations(Map.of(KustomizationPipeline.REQUESTED_AT, "now"));
    fakes.pipeline.reconcile(ks);
    assertEquals(
        "New reconciliation triggered by Kustomization/team/app: reconcile requested",
        lastCanceled().getMessage());

    fakes.pipeline.inputChanged(new NamespacedName("team", "app"), "ConfigMap/team/vars");
    fakes.pipeline.reconcile(ks);
    assertEquals(
        "New reconciliation triggered by ConfigMap/team/vars: changed",
        lastCanceled().getMessage());
    assertEquals(4, fakes.applies.size());
  }

  @Test
  void aChangeWhileTheRevisionIsAppliedStillCancelsTheWaitThatFollows() {
    Kustomization ks = kustomization();
    fakes.live("Deployment/web", "rolling");
    fakes.live("ConfigMap/settings", "ready");
    NamespacedName key = new NamespacedName("team", "app");
    fakes.applying =
        request -> {
          if (fakes.applies.size() == 1) {
            fakes.pipeline.inputChanged(key, "Secret/team/vars"); // seen during the apply
          }
          return PipelineFakes.allCreated(request);
        };
    assertEquals(Outcome.Kind.WAITING, fakes.pipeline.reconcile(ks).kind());

    fakes.pipeline.reconcile(ks);

    assertEquals(2, fakes.applies.size());
    assertEquals(
        "New reconciliation triggered by Secret/team/vars: changed", canceled().getMessage());
  }

  @Test
  void anEventOfAWaitedForObjectIsNoNewInput() {
    Kustomization ks = waiting();
    assertEquals(Outcome.Kind.WAITING, fakes.pipeline.reconcile(ks).kind());
    fakes.live("Deployment/web", "ready");
    assertEquals(Outcome.Kind.SUCCEEDED, fakes.pipeline.reconcile(ks).kind());
    assertEquals(1, fakes.applies.size());
    assertTrue(fakes.written.stream().noneMatch(WaitCancellationTest::isCanceled));
  }

  @Test
  void withCancellationOffTheWaitEndsFirstThenTheNewRevisionFollowsAtOnce() {
    fakes.close();
    fakes =
        new PipelineFakes(
            new PipelineSettings(true, false, ApplyPolicy.DEFAULT, GlobalAgeKeys.NONE));
    Kustomization ks = waiting();
    String first = fakes.revision();
    fakes.newArtifact(NEXT, null);

    assertEquals(Outcome.Kind.WAITING, fakes.pipeline.reconcile(ks).kind());
    assertEquals(1, fakes.applies.size(), "the wait goes on");
    fakes.live("Deployment/web", "ready");
    Outcome ended = fakes.pipeline.reconcile(ks);

    assertEquals(Outcome.Kind.SUCCEEDED, ended.kind());
    assertEquals(Optional.of(Duration.ZERO), ended.requeueAfter(), "the new input follows");
    assertEquals(first, ks.getStatus().lastAppliedRevision());
    assertEquals(1L, ks.getStatus().observedGeneration());
    fakes.pipeline.reconcile(ks);
    assertEquals(2, fakes.applies.size());
    assertEquals(NEXT, ks.getStatus().lastAppliedRevision());
    assertTrue(fakes.written.stream().noneMatch(WaitCancellationTest::isCanceled));
  }

  @Test
  void aCanceledWaitCountsInNoHistoryEntry() {
    Kustomization ks = waiting();
    fakes.newArtifact(NEXT, null);
    fakes.pipeline.reconcile(ks);

    KustomizationStatus status = ks.getStatus();
    assertEquals(List.of(), status.history() == null ? List.of() : status.history());
  }

  private Condition canceled() {
    return fakes.written.stream()
        .filter(WaitCancellationTest::isCanceled)
        .map(s -> KustomizationStatuses.condition(s, ConditionTypes.READY).orElseThrow())
        .findFirst()
        .orElseThrow(() -> new AssertionError("no HealthCheckCanceled in " + fakes.written));
  }

  private Condition lastCanceled() {
    return fakes.written.stream()
        .filter(WaitCancellationTest::isCanceled)
        .map(s -> KustomizationStatuses.condition(s, ConditionTypes.READY).orElseThrow())
        .reduce((a, b) -> b)
        .orElseThrow();
  }

  private static boolean isCanceled(KustomizationStatus status) {
    return KustomizationStatuses.condition(status, ConditionTypes.READY)
        .map(c -> "HealthCheckCanceled".equals(c.getReason()))
        .orElse(false);
  }
}
