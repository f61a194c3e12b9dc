package dev.capstan.engine.kustomization;

import dev.capstan.api.kustomize.HealthCheckReference;
import dev.capstan.api.kustomize.KustomizationSpec;
import dev.capstan.applier.apply.ApplyResult;
import dev.capstan.applier.wait.WaitResult;
import dev.capstan.engine.conditions.Phase;
import dev.capstan.engine.conditions.Reason;
import dev.capstan.engine.core.NamespacedName;
import dev.capstan.engine.pipeline.Outcome;
import dev.capstan.health.AggregateHealth;
import dev.capstan.health.HealthEvaluator;
import dev.capstan.kube.ObjectRef;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The wait stage and its bookkeeping: the health monitor told what to watch, and a health wait that
 * holds no thread, recorded in the {@link WaitTracker}, looked at again on each call, ended when
 * healthy, failed, timed out, or made stale by new input.
 */
final class HealthWait {
  // Logged under the pipeline's name, as before its stages had classes of their own.
  private static final Logger LOG = LoggerFactory.getLogger(KustomizationPipeline.class);

  private final PipelineParts parts;
  private final ActingIdentities identities;
  private final StatusStage status;
  private final AnsweredHealth answeredHealth = new AnsweredHealth();

  HealthWait(PipelineParts parts, ActingIdentities identities, StatusStage status) {
    this.parts = parts;
    this.identities = identities;
    this.status = status;
  }

  /**
   * The objects just applied are waited for, or are Ready at once when there is nothing to wait
   * for; the health monitor watches them from now on either way.
   */
  Outcome await(Attempt attempt) {
    HealthEvaluator evaluator = attempt.evaluator();
    List<ObjectRef> waited = waitSet(attempt);
    if (waited.isEmpty()) {
      return succeededWithoutWait(attempt, evaluator, attempt.applied());
    }
    track(attempt, evaluator, Optional.empty());
    return startWait(attempt, evaluator, waited);
  }

  /**
   * The health monitor keeps the Healthy condition true to what was applied from now on; {@code
   * written} is the health the status already tells.
   */
  private void track(
      Attempt attempt, HealthEvaluator evaluator, Optional<AggregateHealth> written) {
    ActingIdentity identity = attempt.identity();
    parts
        .tracking()
        .track(
            attempt.key(),
            attempt.inventory().refs(),
            evaluator,
            identities.readAs(attempt.object(), identity),
            identity.cluster(),
            written);
  }

  /**
   * Ready with nothing to wait for. The objects' health as the API server answered their applies
   * goes on the same status write, rather than in a write of the health monitor's moments later;
   * the monitor, told of it after the write, writes again only when its watches see otherwise. Not
   * for a service account, whose objects are reported only where it may read them.
   */
  private Outcome succeededWithoutWait(
      Attempt attempt, HealthEvaluator evaluator, ApplyResult applied) {
    Optional<AggregateHealth> answered =
        attempt.identity().serviceAccount().isPresent()
            ? Optional.empty()
            : answeredHealth.of(attempt.inventory().refs(), applied, evaluator);
    Outcome outcome;
    try {
      outcome = status.succeeded(answered.map(attempt::withHealth).orElse(attempt));
    } catch (RuntimeException e) {
      track(attempt, evaluator, Optional.empty());
      throw e;
    }
    track(attempt, evaluator, answered);
    return outcome;
  }

  /** Waits for the health of {@code objects}, which are never none. */
  private Outcome startWait(Attempt attempt, HealthEvaluator evaluator, List<ObjectRef> objects) {
    Instant deadline = attempt.started().plus(attempt.timings().timeout());
    WaitTracker.PendingWait wait =
        new WaitTracker.PendingWait(
            attempt.inputs(),
            deadline,
            objects,
            attempt.inventory(),
            evaluator,
            attempt.since(),
            attempt.digest(),
            attempt.originRevision());
    parts.waits().start(attempt.key(), wait);
    return checkWait(attempt, wait);
  }

  /**
   * The health wait recorded for the attempt's Kustomization, if any, before anything is applied:
   * with the same inputs it is looked at again (its outcome returned); made stale by new input, it
   * is cancelled (empty: the new input is reconciled now) or, with cancellation off, finished
   * first.
   */
  Optional<Outcome> pending(Attempt attempt) {
    Optional<WaitTracker.PendingWait> pending = parts.waits().get(attempt.key());
    if (pending.isEmpty()) {
      return Optional.empty();
    }
    WaitTracker.PendingWait wait = pending.get();
    WaitTracker.Change change = wait.inputs().changeTo(attempt.inputs());
    if (change == WaitTracker.Change.NONE) {
      return Optional.of(checkWait(attempt.continuing(wait), wait));
    }
    if (!parts.settings().cancelWaits()) {
      return Optional.of(finishStaleWait(attempt, wait));
    }
    cancelWait(attempt, wait, change);
    return Optional.empty();
  }

  private Outcome checkWait(Attempt before, WaitTracker.PendingWait wait) {
    Instant now = parts.clock().instant();
    WaitResult result =
        WaitResult.of(
            before.identity().acting().waiter().health(wait.objects(), wait.evaluator()),
            now,
            wait.deadline());
    AggregateHealth health = result.health();
    Attempt attempt = before.withInventory(wait.inventory()).withHealth(health);
    switch (result.verdict()) {
      case CURRENT -> {
        waitEnded(attempt, wait, true, now);
        return status.succeeded(attempt);
      }
      case FAILED -> {
        waitEnded(attempt, wait, false, now);
        throw StageFailure.transientFailure(
                Reason.HEALTH_CHECK_FAILED, "health check failed: " + health.message())
            .after(attempt);
      }
      case TIMED_OUT -> {
        waitEnded(attempt, wait, false, now);
        throw StageFailure.transientFailure(
                Reason.HEALTH_CHECK_FAILED, "timeout waiting for: " + health.message())
            .after(attempt);
      }
      default -> {
        status.write(
            attempt,
            new Phase.Progressing(
                "Applied revision " + attempt.revision() + ", waiting for: " + health.message()));
        Duration remaining = Duration.between(now, wait.deadline());
        return Outcome.waiting(
            remaining.compareTo(parts.waitPoll()) < 0 ? remaining : parts.waitPoll());
      }
    }
  }

  /**
   * Ends a wait that new input made stale, saying so on Ready (HealthCheckCanceled, as Flux), with
   * what the wait was for; the caller goes on to reconcile the new input.
   */
  private void cancelWait(
      Attempt attempt, WaitTracker.PendingWait wait, WaitTracker.Change change) {
    parts.waits().finish(attempt.key());
    // A cancelled wait counts in no history entry, as in Flux.
    Attempt canceled = attempt.forWait(wait).withoutDigest().withInventory(wait.inventory());
    String message = "New reconciliation triggered by " + trigger(attempt, change);
    LOG.info("{}: health check canceled: {}", attempt.key(), message);
    status.write(canceled, new Phase.Failed(Reason.HEALTH_CHECK_CANCELED, message, false));
  }

  /**
   * With cancellation off: the wait goes on for what it was started for, and once it ends the new
   * input is reconciled at once.
   */
  private Outcome finishStaleWait(Attempt attempt, WaitTracker.PendingWait wait) {
    Attempt earlier = attempt.forWait(wait);
    Outcome outcome;
    try {
      outcome = checkWait(earlier, wait);
    } catch (StageFailure failure) {
      outcome = status.failed(failure.reached(earlier), failure);
    }
    return outcome.kind() == Outcome.Kind.WAITING ? outcome : outcome.andAgainNow();
  }

  /** What brought the new input, as Flux names it ({@code Kind/namespace/name}), and what it is. */
  private String trigger(Attempt attempt, WaitTracker.Change change) {
    String self = "Kustomization/" + attempt.key();
    return switch (change) {
      case REVISION -> {
        var ref = attempt.object().getSpec().sourceRef();
        yield "GitRepository/"
            + NamespacedName.resolve(ref.namespace(), ref.name(), attempt.namespace())
            + ": new revision "
            + attempt.revision();
      }
      case SPEC -> self + ": new generation " + attempt.generation();
      case REQUEST -> self + ": reconcile requested";
      case CONFIGURATION ->
          parts.waits().lastConfigChange(attempt.key()).orElse("a ConfigMap or Secret")
              + ": changed";
      case NONE -> self;
    };
  }

  private void waitEnded(
      Attempt attempt, WaitTracker.PendingWait wait, boolean healthy, Instant now) {
    parts.waits().finish(attempt.key());
    parts.observer().healthWaited(attempt.key(), healthy, Duration.between(wait.started(), now));
  }

  private List<ObjectRef> waitSet(Attempt attempt) {
    KustomizationSpec spec = attempt.object().getSpec();
    if (spec.waitEnabled()) {
      return attempt.inventory().refs();
    }
    List<HealthCheckReference> checks = spec.healthChecks();
    if (checks == null) {
      return List.of();
    }
    return checks.stream()
        .map(
            c -> {
              String apiVersion = c.apiVersion() == null ? "v1" : c.apiVersion();
              return ObjectRef.of(
                  apiVersion,
                  c.kind(),
                  c.namespace() == null ? attempt.namespace() : c.namespace(),
                  c.name());
            })
        .toList();
  }
}
