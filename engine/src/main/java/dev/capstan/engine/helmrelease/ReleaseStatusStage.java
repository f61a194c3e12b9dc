package dev.capstan.engine.helmrelease;

import dev.capstan.api.common.GoDuration;
import dev.capstan.api.common.ReconcileRequest;
import dev.capstan.api.helm.HelmRelease;
import dev.capstan.api.helm.HelmReleaseSpec;
import dev.capstan.api.helm.HelmReleaseStatus;
import dev.capstan.api.kustomize.Inventory;
import dev.capstan.decryption.Plaintexts;
import dev.capstan.engine.conditions.HelmReleaseStatuses;
import dev.capstan.engine.conditions.ReleaseObservation;
import dev.capstan.engine.conditions.ReleaseObservation.HealthState;
import dev.capstan.engine.conditions.ReleaseObservationBuilder;
import dev.capstan.engine.conditions.ReleaseReason;
import dev.capstan.engine.core.NamespacedName;
import dev.capstan.engine.pipeline.Backoff;
import dev.capstan.engine.pipeline.Outcome;
import dev.capstan.health.AggregateHealth;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The status stage: the one place a HelmRelease's status is written (through {@link
 * HelmReleaseStatuses}, the status function), and when the controller looks again.
 */
final class ReleaseStatusStage {
  private static final Logger LOG = LoggerFactory.getLogger(HelmReleasePipeline.class);

  private final ReleaseStatusWrites statuses;
  private final Clock clock;
  private final Backoff backoff;
  private final Duration waitPoll;
  private final Duration dependencyRequeue;

  ReleaseStatusStage(
      ReleaseStatusWrites statuses,
      Clock clock,
      Backoff backoff,
      Duration waitPoll,
      Duration dependencyRequeue) {
    this.statuses = statuses;
    this.clock = clock;
    this.backoff = backoff;
    this.waitPoll = waitPoll;
    this.dependencyRequeue = dependencyRequeue;
  }

  /** What every observation of {@code release} starts with. */
  static ReleaseObservationBuilder observe(HelmRelease release) {
    Long generation = release.getMetadata().getGeneration();
    Map<String, String> annotations = release.getMetadata().getAnnotations();
    HelmReleaseSpec spec = release.getSpec();
    return ReleaseObservationBuilder.builder()
        .generation(generation == null ? 0 : generation)
        .handledRequestedAt(
            annotations == null ? null : annotations.get(ReconcileRequest.ANNOTATION))
        .helmChart(
            spec.chart() == null
                ? null
                : HelmChartTemplates.sourceNamespace(release) + "/" + release.helmChartName())
        .storageNamespace(ReleaseTarget.recordedStorage(release))
        .maxHistory(spec.effectiveMaxHistory());
  }

  /**
   * Writes the status {@code seen} makes, with every message quoting one of {@code secrets} (values
   * from Secrets, which a render or apply error may quote) redacted; returns when the controller
   * looks again.
   */
  Outcome write(HelmRelease release, ReleaseObservation seen, Plaintexts secrets) {
    HelmReleaseStatus next =
        HelmReleaseStatuses.next(
            release.getStatus(), redacted(seen, secrets).withNow(clock.instant()));
    statuses.write(release, next);
    return outcome(release, seen, next);
  }

  /** A failed reconcile's status and log line, with what came from Secrets redacted. */
  Outcome failed(
      HelmRelease release, ReleaseObservationBuilder seen, ReleaseFailure f, Plaintexts secrets) {
    String message = secrets.redact(f.getMessage());
    ReleaseObservation.ReleasePhase phase = f.phase(message);
    if (f.reason() == ReleaseReason.CHART_MUTATE_ERROR) {
      // as Flux's: a chart whose version cannot be pinned was never attempted
      seen.attempted(null);
    }
    LOG.info("{}: {}", NamespacedName.of(release), message);
    try {
      return write(release, seen.phase(phase).build(), secrets);
    } catch (KubernetesClientException e) {
      return Outcome.retry(backoff.delay(1, Duration.ofMinutes(1)));
    }
  }

  /**
   * The status of {@code release} once its Healthy condition alone says {@code health} ({@code
   * state}), every message quoting one of {@code secrets} redacted: what the health monitor writes
   * between reconciles, from the same status function.
   */
  static HelmReleaseStatus withLiveHealth(
      HelmRelease release,
      AggregateHealth health,
      HealthState state,
      Plaintexts secrets,
      Instant now) {
    ReleaseObservation seen =
        observe(release)
            .phase(new ReleaseObservation.LiveHealth())
            .health(health)
            .healthState(state)
            .now(now)
            .build();
    return HelmReleaseStatuses.next(release.getStatus(), redacted(seen, secrets));
  }

  static ReleaseObservation redacted(ReleaseObservation seen, Plaintexts secrets) {
    if (secrets.isEmpty()) {
      return seen;
    }
    ReleaseObservation.ReleasePhase phase = seen.phase();
    if (phase instanceof ReleaseObservation.Failed f) {
      phase =
          new ReleaseObservation.Failed(f.reason(), secrets.redact(f.message()), f.releaseFailed());
    } else if (phase instanceof ReleaseObservation.Waiting w) {
      phase = new ReleaseObservation.Waiting(w.reason(), secrets.redact(w.message()));
    } else if (phase instanceof ReleaseObservation.Released r) {
      phase = new ReleaseObservation.Released(r.reason(), secrets.redact(r.message()));
    } else if (phase instanceof ReleaseObservation.HookRunning h) {
      phase = new ReleaseObservation.HookRunning(secrets.redact(h.message()));
    } else if (phase instanceof ReleaseObservation.WaitFailed w) {
      phase = new ReleaseObservation.WaitFailed(w.reason(), secrets.redact(w.message()));
    } else if (phase instanceof ReleaseObservation.Remediated r) {
      phase =
          new ReleaseObservation.Remediated(r.reason(), secrets.redact(r.message()), r.succeeded());
    } else if (phase instanceof ReleaseObservation.Retargeted r) {
      phase = new ReleaseObservation.Retargeted(secrets.redact(r.message()));
    }
    AggregateHealth health = seen.health();
    if (health != null) {
      health =
          new AggregateHealth(
              health.status(),
              secrets.redact(health.message()),
              health.notCurrent(),
              health.notes(),
              health.evaluated());
    }
    return seen.withPhase(phase).withHealth(health);
  }

  private Outcome outcome(HelmRelease release, ReleaseObservation seen, HelmReleaseStatus next) {
    Duration interval = GoDuration.parse(release.getSpec().interval());
    if (seen.phase() instanceof ReleaseObservation.Waiting w) {
      return Outcome.dependencyNotReady(
          w.reason() == ReleaseReason.DEPENDENCY_NOT_READY ? dependencyRequeue : interval);
    }
    if (seen.phase() instanceof ReleaseObservation.Stalled) {
      return Outcome.terminal();
    }
    if (seen.phase() instanceof ReleaseObservation.Retargeted) {
      return Outcome.waiting(Duration.ZERO); // the install at the new target, at once
    }
    if (seen.phase() instanceof ReleaseObservation.HookRunning
        || seen.tests() instanceof ReleaseObservation.TestsRunning) {
      return Outcome.waiting(waitPoll);
    }
    if (seen.tests() instanceof ReleaseObservation.TestsFailed f && !f.ignored()) {
      return retry(next, interval); // remediated by the next reconcile, as a failed release
    }
    if (seen.phase() instanceof ReleaseObservation.Failed
        || seen.phase() instanceof ReleaseObservation.WaitFailed
        || seen.phase() instanceof ReleaseObservation.Remediated) {
      return retry(next, interval);
    }
    return byHealth(seen.healthState(), next, interval);
  }

  private Outcome byHealth(HealthState state, HelmReleaseStatus next, Duration interval) {
    if (state == null || state == HealthState.CURRENT || state == HealthState.UNSETTLED) {
      return Outcome.succeeded(interval);
    }
    if (state == HealthState.IN_PROGRESS) {
      return Outcome.waiting(waitPoll);
    }
    return retry(next, interval);
  }

  private Outcome retry(HelmReleaseStatus next, Duration interval) {
    long failures = next.failures() == null ? 1 : next.failures();
    return Outcome.retry(backoff.delay((int) Math.min(failures, 30), interval));
  }

  /** The release action last attempted, as the status says; null when none was. */
  static HelmReleaseStatus.ReleaseAction lastAction(HelmRelease release) {
    return release.getStatus() == null ? null : release.getStatus().lastAttemptedReleaseAction();
  }

  /** The objects of the release, as the status last recorded them; null when none. */
  static Inventory inventoryOf(HelmRelease release) {
    return release.getStatus() == null ? null : release.getStatus().inventory();
  }
}
