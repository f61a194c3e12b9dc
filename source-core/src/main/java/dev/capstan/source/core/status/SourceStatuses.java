package dev.capstan.source.core.status;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.store.FetchResult;
import dev.capstan.source.core.store.StoredArtifact;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Computes a GitRepository's next status from its previous status and a fetch result. Pure: the
 * same inputs give the same status, and a condition keeps its lastTransitionTime while its status
 * stays the same.
 */
public final class SourceStatuses {

  public static final String SUCCEEDED = "Succeeded";

  private SourceStatuses() {}

  public static SourceStatus next(
      SourceStatus previous, long generation, FetchResult result, Instant now) {
    List<Condition> conditions = new ArrayList<>();
    Optional<StoredArtifact> artifact;
    if (result instanceof FetchResult.Failed failed) {
      artifact = failed.lastGood().or(previous::artifact);
      FailureReason reason = failed.reason();
      conditions.add(
          condition(
              previous,
              Condition.READY,
              Condition.Status.FALSE,
              reason.conditionReason(),
              failed.message(),
              generation,
              now));
      String failureType =
          reason == FailureReason.INCLUDE_UNAVAILABLE
              ? Condition.INCLUDE_UNAVAILABLE
              : reason.buildFailure() ? Condition.BUILD_FAILED : Condition.FETCH_FAILED;
      conditions.add(
          condition(
              previous,
              failureType,
              Condition.Status.TRUE,
              reason.conditionReason(),
              failed.message(),
              generation,
              now));
      if (reason == FailureReason.VERIFICATION_FAILED) {
        conditions.add(
            condition(
                previous,
                Condition.SOURCE_VERIFIED,
                Condition.Status.FALSE,
                reason.conditionReason(),
                failed.message(),
                generation,
                now));
      } else {
        // Another failure says nothing new about signatures: what was last seen stands.
        previous.condition(Condition.SOURCE_VERIFIED).ifPresent(conditions::add);
      }
      if (reason.needsSpecChange()) {
        conditions.add(
            condition(
                previous,
                Condition.STALLED,
                Condition.Status.TRUE,
                reason.conditionReason(),
                failed.message(),
                generation,
                now));
      }
    } else {
      StoredArtifact current = result.artifact().orElseThrow();
      artifact = Optional.of(current);
      String message = "stored artifact for revision '" + current.revision() + "'";
      conditions.add(
          condition(
              previous,
              Condition.READY,
              Condition.Status.TRUE,
              SUCCEEDED,
              message,
              generation,
              now));
      current
          .verified()
          .ifPresent(
              v ->
                  conditions.add(
                      condition(
                          previous,
                          Condition.SOURCE_VERIFIED,
                          Condition.Status.TRUE,
                          SUCCEEDED,
                          v.message(),
                          generation,
                          now)));
    }
    artifact.ifPresent(
        a ->
            conditions.add(
                condition(
                    previous,
                    Condition.ARTIFACT_IN_STORAGE,
                    Condition.Status.TRUE,
                    SUCCEEDED,
                    "stored artifact for revision '" + a.revision() + "'",
                    generation,
                    now)));
    return new SourceStatus(generation, conditions, artifact);
  }

  /**
   * The status of a source that stores no artifact and is ready as it is (a HelmRepository of type
   * oci, which only records where its charts are): Ready with {@code message}, nothing else.
   */
  public static SourceStatus recorded(
      SourceStatus previous, long generation, String message, Instant now) {
    return new SourceStatus(
        generation,
        List.of(
            condition(
                previous,
                Condition.READY,
                Condition.Status.TRUE,
                SUCCEEDED,
                message,
                generation,
                now)),
        Optional.empty());
  }

  private static Condition condition(
      SourceStatus previous,
      String type,
      Condition.Status status,
      String reason,
      String message,
      long generation,
      Instant now) {
    Instant since =
        previous
            .condition(type)
            .filter(c -> c.status() == status)
            .map(Condition::lastTransitionTime)
            .orElse(now);
    return new Condition(type, status, reason, message, generation, since);
  }
}
