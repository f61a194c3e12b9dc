package dev.capstan.engine.source;

import dev.capstan.api.source.Artifact;
import dev.capstan.api.source.BucketStatus;
import dev.capstan.api.source.GitRepositoryStatus;
import dev.capstan.api.source.HelmChartStatus;
import dev.capstan.api.source.HelmRepositoryStatus;
import dev.capstan.api.source.IncludedArtifact;
import dev.capstan.api.source.OCIRepositorySpec;
import dev.capstan.api.source.OCIRepositoryStatus;
import dev.capstan.engine.conditions.ConditionMessages;
import dev.capstan.source.core.Verified;
import dev.capstan.source.core.status.Condition;
import dev.capstan.source.core.status.SourceStatus;
import dev.capstan.source.core.store.StoredArtifact;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;

/** Converts a source's status between the API types and the source modules'. Pure. */
final class ApiSourceStatuses {
  private ApiSourceStatuses() {}

  static SourceStatus fromApi(GitRepositoryStatus status) {
    if (status == null) {
      return SourceStatus.empty();
    }
    return fromApi(status.observedGeneration(), status.conditions(), status.artifact());
  }

  /** The parts every source's status has in common (an OCIRepository's too). */
  static SourceStatus fromApi(
      Long observedGeneration,
      List<io.fabric8.kubernetes.api.model.Condition> apiConditions,
      Artifact apiArtifact) {
    List<Condition> conditions =
        apiConditions == null
            ? List.of()
            : apiConditions.stream().map(ApiSourceStatuses::fromApi).toList();
    Optional<StoredArtifact> artifact =
        Optional.ofNullable(apiArtifact)
            .filter(a -> a.revision() != null && a.path() != null)
            .map(
                a ->
                    new StoredArtifact(
                        a.revision(),
                        a.digest(),
                        Path.of(a.path()),
                        instant(a.lastUpdateTime()),
                        Optional.empty(),
                        List.of(),
                        a.metadata()));
    return new SourceStatus(
        observedGeneration == null ? 0 : observedGeneration, conditions, artifact);
  }

  static GitRepositoryStatus toApi(SourceStatus status, String handledRequestedAt) {
    Artifact artifact = artifactOf(status);
    var included =
        status
            .artifact()
            .map(
                a ->
                    a.included().stream()
                        .map(
                            i ->
                                new IncludedArtifact(
                                    i.name(), i.revision(), i.digest(), i.toPath()))
                        .toList())
            .filter(l -> !l.isEmpty())
            .orElse(null);
    String verifiedMode =
        status.artifact().flatMap(StoredArtifact::verified).map(Verified::mode).orElse(null);
    return new GitRepositoryStatus(
        status.observedGeneration(),
        status.conditions().stream().map(ApiSourceStatuses::toApi).toList(),
        artifact,
        handledRequestedAt,
        included,
        verifiedMode);
  }

  private static Condition fromApi(io.fabric8.kubernetes.api.model.Condition c) {
    Condition.Status status =
        switch (String.valueOf(c.getStatus())) {
          case "True" -> Condition.Status.TRUE;
          case "False" -> Condition.Status.FALSE;
          default -> Condition.Status.UNKNOWN;
        };
    return new Condition(
        c.getType(),
        status,
        c.getReason(),
        c.getMessage(),
        c.getObservedGeneration() == null ? 0 : c.getObservedGeneration(),
        instant(c.getLastTransitionTime()));
  }

  /** An OCIRepository's status: the common parts, the artifact's metadata, what made it. */
  static OCIRepositoryStatus toApi(
      SourceStatus status, String handledRequestedAt, OCIRepositorySpec spec) {
    Artifact artifact = artifactOf(status);
    return new OCIRepositoryStatus(
        status.observedGeneration(),
        status.conditions().stream().map(ApiSourceStatuses::toApi).toList(),
        artifact,
        artifact == null ? null : spec.ignore(),
        artifact == null ? null : spec.layerSelector(),
        handledRequestedAt);
  }

  /** A HelmRepository's status: the common parts only. */
  static HelmRepositoryStatus helmStatus(SourceStatus status, String handledRequestedAt) {
    return new HelmRepositoryStatus(
        status.observedGeneration(),
        status.conditions().stream().map(ApiSourceStatuses::toApi).toList(),
        artifactOf(status),
        handledRequestedAt);
  }

  /** A Bucket's status: the common parts, and the spec.ignore its artifact was made with. */
  static BucketStatus bucketStatus(
      SourceStatus status, String observedIgnore, String handledRequestedAt) {
    return new BucketStatus(
        status.observedGeneration(),
        status.conditions().stream().map(ApiSourceStatuses::toApi).toList(),
        artifactOf(status),
        observedIgnore,
        handledRequestedAt);
  }

  /**
   * A HelmChart's status: the common parts, what the artifact was built from, and the artifact
   * without the metadata the store keeps for these fields.
   */
  static HelmChartStatus chartStatus(
      SourceStatus status,
      String handledRequestedAt,
      String sourceRevision,
      String chartName,
      List<String> valuesFiles) {
    Artifact artifact = artifactOf(status);
    Artifact withoutMetadata =
        artifact == null
            ? null
            : new Artifact(
                artifact.revision(),
                artifact.digest(),
                artifact.path(),
                artifact.lastUpdateTime(),
                artifact.url(),
                artifact.size(),
                null);
    return new HelmChartStatus(
        status.observedGeneration(),
        sourceRevision,
        chartName,
        valuesFiles,
        status.conditions().stream().map(ApiSourceStatuses::toApi).toList(),
        withoutMetadata,
        null,
        handledRequestedAt);
  }

  /** The artifact as the API writes it: its metadata (an OCI artifact's) only when it has any. */
  private static Artifact artifactOf(SourceStatus status) {
    return status
        .artifact()
        .map(
            a ->
                new Artifact(
                    a.revision(),
                    a.digest(),
                    a.path().toString(),
                    format(a.lastUpdateTime()),
                    null,
                    null,
                    a.metadata().isEmpty() ? null : new TreeMap<>(a.metadata())))
        .orElse(null);
  }

  private static io.fabric8.kubernetes.api.model.Condition toApi(Condition c) {
    return new ConditionBuilder()
        .withType(c.type())
        .withStatus(c.status().text())
        .withReason(c.reason())
        .withMessage(ConditionMessages.bounded(c.message()))
        .withObservedGeneration(c.observedGeneration())
        .withLastTransitionTime(format(c.lastTransitionTime()))
        .build();
  }

  private static Instant instant(String text) {
    try {
      return text == null ? Instant.EPOCH : Instant.parse(text);
    } catch (RuntimeException e) {
      return Instant.EPOCH;
    }
  }

  private static String format(Instant instant) {
    return DateTimeFormatter.ISO_INSTANT.format(instant.truncatedTo(ChronoUnit.SECONDS));
  }
}
