package dev.capstan.engine.controller;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.kustomize.KustomizationStatus;
import dev.capstan.api.source.Artifact;
import dev.capstan.api.source.GitRepository;
import dev.capstan.api.source.GitRepositoryStatus;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EventFiltersTest {

  private static Kustomization ks(long generation, String requestedAt, KustomizationStatus status) {
    Kustomization k = new Kustomization();
    k.setMetadata(
        new ObjectMetaBuilder()
            .withName("a")
            .withNamespace("ns")
            .withGeneration(generation)
            .withAnnotations(
                requestedAt == null
                    ? Map.of()
                    : Map.of("reconcile.capstan.dev/requestedAt", requestedAt))
            .build());
    k.setStatus(status);
    return k;
  }

  private static KustomizationStatus status(String ready, long observed, String revision) {
    return new KustomizationStatus(
        observed,
        List.of(new ConditionBuilder().withType("Ready").withStatus(ready).withReason("r").build()),
        revision,
        revision,
        null,
        null);
  }

  private static GitRepository repo(String revision) {
    GitRepository r = new GitRepository();
    r.setMetadata(new ObjectMetaBuilder().withName("r").withNamespace("ns").build());
    r.setStatus(
        new GitRepositoryStatus(
            1L, List.of(), revision == null ? null : new Artifact(revision, "d", "/p", "t"), null));
    return r;
  }

  @Test
  void ownStatusWritesDoNotReconcileButSpecAndRequestsDo() {
    assertFalse(EventFilters.ownChange(ks(1, null, status("True", 1, "x")), ks(1, null, null)));
    assertTrue(EventFilters.ownChange(ks(2, null, null), ks(1, null, null)));
    assertTrue(EventFilters.ownChange(ks(1, "now", null), ks(1, null, null)));
    assertFalse(EventFilters.ownChange(ks(1, "now", null), ks(1, "now", null)));
  }

  @Test
  void theFinalizerUpdateAfterTheFirstEventRunsThePipeline() {
    Kustomization withFinalizer = ks(1, null, null);
    withFinalizer.getMetadata().setFinalizers(List.of("kustomize.capstan.dev/finalizer"));
    assertTrue(EventFilters.ownChange(withFinalizer, ks(1, null, null)));
  }

  @Test
  void dependentsWakeOnReadinessChangesOnly() {
    assertTrue(
        EventFilters.readinessChange(
            ks(1, null, status("True", 1, "a")), ks(1, null, status("False", 1, "a"))));
    assertTrue(
        EventFilters.readinessChange(
            ks(1, null, status("True", 1, "b")), ks(1, null, status("True", 1, "a"))));
    assertTrue(
        EventFilters.readinessChange(
            ks(2, null, status("True", 1, "a")), ks(1, null, status("True", 1, "a"))));
    assertFalse(
        EventFilters.readinessChange(
            ks(1, "x", status("True", 1, "a")), ks(1, null, status("True", 1, "a"))));
  }

  @Test
  void kustomizationsWakeOnANewRevisionOnly() {
    assertTrue(EventFilters.revisionChange(repo("main@sha1:b"), repo("main@sha1:a")));
    assertTrue(EventFilters.revisionChange(repo("main@sha1:a"), repo(null)));
    assertFalse(EventFilters.revisionChange(repo("main@sha1:a"), repo("main@sha1:a")));
  }
}
