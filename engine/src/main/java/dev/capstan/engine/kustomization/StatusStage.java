package dev.capstan.engine.kustomization;

import dev.capstan.api.kustomize.KustomizationStatus;
import dev.capstan.engine.conditions.ConditionTypes;
import dev.capstan.engine.conditions.KustomizationStatuses;
import dev.capstan.engine.conditions.Observation;
import dev.capstan.engine.conditions.ObservationBuilder;
import dev.capstan.engine.conditions.Phase;
import dev.capstan.engine.pipeline.Inventories;
import dev.capstan.engine.pipeline.Outcome;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The status stage: writes how far an attempt got (through {@link KustomizationStatuses}, the one
 * status function) and says when the controller looks again.
 */
final class StatusStage {
  // Logged under the pipeline's name, as before its stages had classes of their own.
  private static final Logger LOG = LoggerFactory.getLogger(KustomizationPipeline.class);

  private final PipelineParts parts;
  private final RetryCounter retries;

  StatusStage(PipelineParts parts, RetryCounter retries) {
    this.parts = parts;
    this.retries = retries;
  }

  /** Says "in progress" before the slow stages, unless this is a repeat of what is applied. */
  void announce(Attempt attempt) {
    KustomizationStatus status = attempt.object().getStatus();
    boolean repeat =
        status != null
            && Objects.equals(status.lastAppliedRevision(), attempt.revision())
            && Objects.equals(status.observedGeneration(), attempt.generation())
            && Objects.equals(status.lastHandledReconcileAt(), attempt.requestedAt())
            && KustomizationStatuses.condition(status, ConditionTypes.READY)
                .map(c -> ConditionTypes.TRUE.equals(c.getStatus()))
                .orElse(false);
    if (!repeat) {
      write(
          attempt,
          new Phase.Progressing("Reconciliation in progress for revision " + attempt.revision()));
    }
  }

  Outcome succeeded(Attempt attempt) {
    retries.reset(attempt.key());
    String warning =
        parts
            .manifestBuilder()
            .unconfined()
            .map(why -> "built without the kernel's sandbox (" + why + ")")
            .orElse("");
    write(attempt, new Phase.Succeeded(attempt.revision(), warning));
    return Outcome.succeeded(attempt.timings().interval());
  }

  Outcome failed(Attempt attempt, StageFailure reported) {
    // Nothing decrypted may reach the status, an event or the log: a build or apply error can
    // quote it (kustomize quotes env lines, the API server quotes refused keys).
    StageFailure failure =
        attempt.plaintexts().isEmpty() ? reported : reported.redacted(attempt.plaintexts()::redact);
    Phase phase = failure.phase();
    try {
      write(attempt, phase);
    } catch (KubernetesClientException e) {
      LOG.warn(
          "{}: {}; the status could not be written either: {}",
          attempt.key(),
          failure.getMessage(),
          e.getMessage());
      return retryLater(attempt);
    }
    if (phase instanceof Phase.Failed f && f.terminal()) {
      LOG.info("{}: stalled: {}", attempt.key(), f.message());
      return Outcome.terminal();
    }
    if (phase instanceof Phase.Waiting) {
      return Outcome.dependencyNotReady(retryInterval(attempt));
    }
    int failures = retries.failed(attempt.key());
    LOG.info("{}: {} (retry {})", attempt.key(), failure.getMessage(), failures);
    return Outcome.retry(parts.backoff().delay(failures, retryInterval(attempt)));
  }

  Outcome retryLater(Attempt attempt) {
    return Outcome.retry(
        parts.backoff().delay(retries.failed(attempt.key()), retryInterval(attempt)));
  }

  /** The spec's retryInterval; a minute when the spec could not be read that far. */
  private static Duration retryInterval(Attempt attempt) {
    return attempt.timings() == null ? Duration.ofMinutes(1) : attempt.timings().retryInterval();
  }

  /** The status of how far {@code attempt} got; its inventory turns into the status's here. */
  void write(Attempt attempt, Phase phase) {
    Instant now = parts.clock().instant();
    Observation observation =
        ObservationBuilder.builder()
            .generation(attempt.generation())
            .now(now)
            .handledRequestedAt(attempt.requestedAt())
            .attemptedRevision(attempt.revision())
            .phase(phase)
            .inventory(
                attempt.inventory() == null ? null : Inventories.toStatus(attempt.inventory()))
            .health(attempt.health())
            .drift(attempt.drift())
            .reconciled(
                attempt.digest() == null
                    ? null
                    : new Observation.Reconciled(
                        attempt.digest(),
                        Duration.between(attempt.since(), now),
                        attempt.revision(),
                        attempt.originRevision()))
            .build();
    KustomizationStatus next =
        KustomizationStatuses.next(attempt.object().getStatus(), observation);
    parts.statuses().write(attempt.object(), next);
  }
}
