package dev.capstan.engine.kustomization;

import dev.capstan.api.kustomize.SourceReference.SourceKind;
import dev.capstan.api.source.Artifact;
import dev.capstan.api.source.Bucket;
import dev.capstan.api.source.ExternalArtifact;
import dev.capstan.api.source.GitRepository;
import dev.capstan.api.source.OCIRepository;
import dev.capstan.engine.conditions.ConditionTypes;
import dev.capstan.engine.conditions.Reason;
import dev.capstan.engine.core.NamespacedName;
import dev.capstan.engine.pipeline.ClusterView;
import dev.capstan.engine.pipeline.StoredTrees;
import dev.capstan.source.core.SourceException;
import dev.capstan.source.oci.ArtifactDownloads;
import io.fabric8.kubernetes.api.model.Condition;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The source stage: the artifact of a Kustomization's sourceRef (a GitRepository, an OCIRepository,
 * a Bucket or an ExternalArtifact) found in the engine's store, or why it cannot be used.
 */
final class ArtifactLookup {
  private final ClusterView view;
  private final StoredTrees trees;
  private final ReferenceRules rules;

  ArtifactLookup(ClusterView view, StoredTrees trees, ReferenceRules rules) {
    this.view = view;
    this.trees = trees;
    this.rules = rules;
  }

  /**
   * An artifact found in the engine's store: its revision, digest and tree, and the revision of the
   * source it was made from when its producer says so (an OCI artifact's
   * org.opencontainers.image.revision annotation), for status.lastAppliedOriginRevision.
   */
  record StoredArtifact(
      String revision, String digest, Path tree, Optional<String> originRevision) {}

  /**
   * The artifact is missing from a store that the engine started afresh, and its source has not
   * been fetched into it yet, or the status is about to name what was (see FetchAttempts): not a
   * failure. Nothing is written (the status keeps saying what was last applied); the Kustomization
   * looks again when the artifact is stored, or after {@link #ON_ITS_WAY_POLL}.
   */
  static final class OnItsWay extends RuntimeException {
    private static final long serialVersionUID = 1L;

    OnItsWay(String message) {
      super(message, null, false, false);
    }
  }

  /** When a Kustomization whose artifact is on its way looks again, if nothing woke it before. */
  static final Duration ON_ITS_WAY_POLL = Duration.ofSeconds(3);

  /** {@code attempt} with the artifact of the Kustomization's sourceRef, in the engine's store. */
  Attempt find(Attempt attempt) {
    return attempt.sourced(artifactOf(attempt));
  }

  private StoredArtifact artifactOf(Attempt attempt) {
    var ref = attempt.object().getSpec().sourceRef();
    NamespacedName key = NamespacedName.resolve(ref.namespace(), ref.name(), attempt.namespace());
    SourceKind kind = ref.kind() == null ? SourceKind.GitRepository : ref.kind();
    Optional<String> refused = rules.sourceRefRefusal(attempt.namespace(), kind.name(), key);
    if (refused.isPresent()) {
      throw StageFailure.terminal(Reason.ACCESS_DENIED, refused.get());
    }
    return switch (kind) {
      case GitRepository -> gitSource(key);
      case OCIRepository -> ociSource(key);
      case Bucket -> bucketSource(key);
      case ExternalArtifact -> externalSource(key, attempt);
    };
  }

  private StoredArtifact gitSource(NamespacedName key) {
    GitRepository repo = view.gitRepository(key).orElseThrow(() -> notFound("GitRepository", key));
    Artifact artifact = repo.getStatus() == null ? null : repo.getStatus().artifact();
    return stored("GitRepository", key, artifact, readyMessage(conditionsOf(repo)));
  }

  private StoredArtifact ociSource(NamespacedName key) {
    OCIRepository repo = view.ociRepository(key).orElseThrow(() -> notFound("OCIRepository", key));
    Artifact artifact = repo.getStatus() == null ? null : repo.getStatus().artifact();
    List<Condition> conditions = repo.getStatus() == null ? null : repo.getStatus().conditions();
    return stored("OCIRepository", key, artifact, readyMessage(conditions));
  }

  private StoredArtifact bucketSource(NamespacedName key) {
    Bucket bucket = view.bucket(key).orElseThrow(() -> notFound("Bucket", key));
    Artifact artifact = bucket.getStatus() == null ? null : bucket.getStatus().artifact();
    List<Condition> conditions =
        bucket.getStatus() == null ? null : bucket.getStatus().conditions();
    return stored("Bucket", key, artifact, readyMessage(conditions));
  }

  /**
   * A tree in the engine's own store, looked up by the digest the source's status names (never a
   * directory the status names).
   */
  private StoredArtifact stored(String kind, NamespacedName key, Artifact artifact, String why) {
    if (artifact == null || artifact.revision() == null) {
      throw StageFailure.transientFailure(
          Reason.ARTIFACT_FAILED, kind + " '" + key + "' has no artifact yet" + why);
    }
    // In this order: a fetch that stores the artifact between the two questions is no failure.
    boolean onItsWay = trees.onItsWay(kind, key, artifact.digest());
    Optional<Path> found = trees.forDigest(artifact.digest());
    if (found.isEmpty() && onItsWay) {
      throw new OnItsWay(kind + " '" + key + "' is being fetched into the new artifact store");
    }
    Path tree =
        found.orElseThrow(
            () ->
                StageFailure.transientFailure(
                    Reason.ARTIFACT_FAILED,
                    "the artifact of "
                        + kind
                        + " '"
                        + key
                        + "' for revision "
                        + artifact.revision()
                        + " is not in local storage"));
    return new StoredArtifact(
        artifact.revision(), artifact.digest(), tree, artifact.originRevision());
  }

  /**
   * An ExternalArtifact's file, which another controller serves at the URL its status names:
   * downloaded into the store and checked against the status's digest (the tree's digest is the
   * store's own, so a build's cache keys stay those of the content).
   */
  private StoredArtifact externalSource(NamespacedName key, Attempt attempt) {
    ExternalArtifact external =
        view.externalArtifact(key).orElseThrow(() -> notFound("ExternalArtifact", key));
    Artifact artifact = external.getStatus() == null ? null : external.getStatus().artifact();
    if (artifact == null || artifact.revision() == null || artifact.url() == null) {
      throw StageFailure.transientFailure(
          Reason.ARTIFACT_FAILED,
          "ExternalArtifact '"
              + key
              + "' has no artifact yet"
              + readyMessage(
                  external.getStatus() == null ? null : external.getStatus().conditions()));
    }
    try {
      var stored =
          trees.external(
              attempt.key().namespace(),
              new ArtifactDownloads.Wanted(
                  "externalartifact/" + key,
                  artifact.url(),
                  artifact.digest(),
                  artifact.revision(),
                  artifact.metadata()),
              attempt.timings().timeout());
      return new StoredArtifact(
          artifact.revision(), stored.digest(), stored.path(), artifact.originRevision());
    } catch (SourceException e) {
      throw StageFailure.transientFailure(
          Reason.ARTIFACT_FAILED,
          "the artifact of ExternalArtifact '" + key + "' cannot be used: " + e.getMessage());
    }
  }

  private static StageFailure notFound(String kind, NamespacedName key) {
    return StageFailure.transientFailure(Reason.ARTIFACT_FAILED, kind + " '" + key + "' not found");
  }

  private static List<Condition> conditionsOf(GitRepository repo) {
    return repo.getStatus() == null ? null : repo.getStatus().conditions();
  }

  private static String readyMessage(List<Condition> conditions) {
    if (conditions == null) {
      return "";
    }
    return conditions.stream()
        .filter(c -> ConditionTypes.READY.equals(c.getType()) && c.getMessage() != null)
        .findFirst()
        .map(c -> ": " + c.getMessage())
        .orElse("");
  }
}
