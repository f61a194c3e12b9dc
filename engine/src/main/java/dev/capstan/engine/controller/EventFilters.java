package dev.capstan.engine.controller;

import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.kustomize.KustomizationStatus;
import dev.capstan.api.source.Bucket;
import dev.capstan.api.source.ExternalArtifact;
import dev.capstan.api.source.GitRepository;
import dev.capstan.api.source.OCIRepository;
import dev.capstan.api.source.OCIRepositoryStatus;
import dev.capstan.engine.conditions.ConditionTypes;
import dev.capstan.engine.conditions.KustomizationStatuses;
import dev.capstan.engine.kustomization.KustomizationPipeline;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Map;
import java.util.Objects;

/**
 * Which changes start a reconcile. Status writes (Capstan's own) never do; a new generation, a
 * reconcile request, deletion, a new source revision, and a dependency's readiness do.
 */
final class EventFilters {
  private EventFilters() {}

  /**
   * For the object itself: its spec, the reconcile-request annotation, deletion, and its finalizers
   * (the first reconcile only adds the finalizer; the update that follows must run the pipeline, or
   * a new object whose source is already ready would wait a whole interval).
   */
  static boolean ownChange(HasMetadata newer, HasMetadata older) {
    return !Objects.equals(newer.getMetadata().getGeneration(), older.getMetadata().getGeneration())
        || !Objects.equals(newer.getMetadata().getFinalizers(), older.getMetadata().getFinalizers())
        || !Objects.equals(requestedAt(newer), requestedAt(older))
        || !Objects.equals(
            newer.getMetadata().getDeletionTimestamp(), older.getMetadata().getDeletionTimestamp());
  }

  /** For a GitRepository seen by its Kustomizations: its artifact revision. */
  static boolean revisionChange(GitRepository newer, GitRepository older) {
    // The digest too: an included repository's new revision changes it, not the revision.
    return !Objects.equals(revision(newer), revision(older))
        || !Objects.equals(digest(newer), digest(older));
  }

  private static String digest(GitRepository repo) {
    return repo.getStatus() == null || repo.getStatus().artifact() == null
        ? null
        : repo.getStatus().artifact().digest();
  }

  /** For an OCIRepository seen by its Kustomizations: its artifact's revision or digest. */
  static boolean revisionChange(OCIRepository newer, OCIRepository older) {
    return !Objects.equals(artifactOf(newer.getStatus()), artifactOf(older.getStatus()));
  }

  /** For a Bucket seen by its Kustomizations: its artifact's revision or digest. */
  static boolean revisionChange(Bucket newer, Bucket older) {
    return !Objects.equals(
        newer.getStatus() == null ? null : newer.getStatus().artifact(),
        older.getStatus() == null ? null : older.getStatus().artifact());
  }

  /**
   * For an ExternalArtifact seen by its Kustomizations: its artifact (a new URL or digest, or
   * metadata, is a new artifact to build).
   */
  static boolean revisionChange(ExternalArtifact newer, ExternalArtifact older) {
    return !Objects.equals(
        newer.getStatus() == null ? null : newer.getStatus().artifact(),
        older.getStatus() == null ? null : older.getStatus().artifact());
  }

  private static String artifactOf(OCIRepositoryStatus status) {
    return status == null || status.artifact() == null
        ? null
        : status.artifact().revision() + " " + status.artifact().digest();
  }

  /** For a GitRepository seen by those that include it: its artifact (revision or digest). */
  static boolean artifactChange(GitRepository newer, GitRepository older) {
    return !Objects.equals(artifact(newer), artifact(older));
  }

  private static Object artifact(GitRepository repo) {
    return repo.getStatus() == null ? null : repo.getStatus().artifact();
  }

  /** For a Kustomization seen by its dependents: whatever decides whether it is ready. */
  static boolean readinessChange(Kustomization newer, Kustomization older) {
    return !Objects.equals(newer.getMetadata().getGeneration(), older.getMetadata().getGeneration())
        || !Objects.equals(ready(newer.getStatus()), ready(older.getStatus()))
        || !Objects.equals(observed(newer.getStatus()), observed(older.getStatus()))
        || !Objects.equals(applied(newer.getStatus()), applied(older.getStatus()))
        || !Objects.equals(newer.getSpec(), older.getSpec());
  }

  /**
   * For a Kustomization seen by its dependents and its dependencies: its readiness, or its deletion
   * starting (its dependencies delete their objects after it is gone).
   */
  static boolean readinessOrDeletionChange(Kustomization newer, Kustomization older) {
    return readinessChange(newer, older)
        || !Objects.equals(
            newer.getMetadata().getDeletionTimestamp(), older.getMetadata().getDeletionTimestamp());
  }

  private static String requestedAt(HasMetadata object) {
    Map<String, String> annotations = object.getMetadata().getAnnotations();
    return annotations == null ? null : annotations.get(KustomizationPipeline.REQUESTED_AT);
  }

  private static String revision(GitRepository repo) {
    return repo.getStatus() == null || repo.getStatus().artifact() == null
        ? null
        : repo.getStatus().artifact().revision();
  }

  private static String ready(KustomizationStatus status) {
    return KustomizationStatuses.condition(status, ConditionTypes.READY)
        .map(c -> c.getStatus())
        .orElse(null);
  }

  private static Long observed(KustomizationStatus status) {
    return status == null ? null : status.observedGeneration();
  }

  private static String applied(KustomizationStatus status) {
    return status == null ? null : status.lastAppliedRevision();
  }
}
