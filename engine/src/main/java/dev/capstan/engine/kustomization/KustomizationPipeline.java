package dev.capstan.engine.kustomization;

import dev.capstan.api.common.ReconcileRequest;
import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.engine.conditions.Reason;
import dev.capstan.engine.core.NamespacedName;
import dev.capstan.engine.pipeline.Outcome;
import dev.capstan.engine.shard.WriteFence;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One reconcile of a Kustomization, one call per stage: prepare → gate → remote cluster → source →
 * pending wait → build → apply → prune → wait → status. Each stage is a class of its own that takes
 * the {@link Attempt} and hands back the next one. Knows nothing of the controller framework that
 * calls it.
 *
 * <p>A health wait does not hold the calling thread: the pipeline records it and returns a short
 * requeue; the next call (on an event of a watched object, or the requeue) looks again. New input
 * (a new source revision, generation or reconcile request, or a changed ConfigMap or Secret the
 * Kustomization reads) ends a wait in progress with reason HealthCheckCanceled and is reconciled in
 * the same call; with cancellation off, the wait goes on until it ends and the new input is
 * reconciled right after.
 */
public final class KustomizationPipeline {
  /** Annotation that asks for a reconcile now; its value is echoed in lastHandledReconcileAt. */
  public static final String REQUESTED_AT = ReconcileRequest.ANNOTATION;

  private static final Logger LOG = LoggerFactory.getLogger(KustomizationPipeline.class);

  private final PipelineParts parts;
  private final DependencyGate gate;
  private final Preparation preparation;
  private final ActingIdentities identities;
  private final ArtifactLookup artifacts;
  private final Applying applying;
  private final HealthWait health;
  private final StatusStage status;
  private final KustomizationDeletion deletion;

  public KustomizationPipeline(PipelineParts parts) {
    Objects.requireNonNull(parts.view(), "parts.view");
    this.parts = parts;
    ReferenceRules rules = new ReferenceRules(parts.noCrossNamespaceRefs());
    RetryCounter retries = new RetryCounter();
    this.gate = new DependencyGate(parts.view(), rules, parts.dependencyWatching());
    this.identities = new ActingIdentities(parts.accounts(), parts.remotes());
    this.preparation =
        new Preparation(new HealthEvaluators(parts.library(), parts.clock()), identities);
    this.artifacts = new ArtifactLookup(parts.view(), parts.trees(), rules);
    this.applying = new Applying(parts.settings(), parts.observer(), parts.fence());
    this.status = new StatusStage(parts, retries);
    this.health = new HealthWait(parts, identities, status);
    this.deletion =
        new KustomizationDeletion(
            parts,
            gate,
            new DependentsWait(parts.view(), rules, parts.clock()),
            identities,
            retries,
            status);
  }

  /**
   * A ConfigMap or Secret that {@code key} reads changed ({@code trigger} names it): a health wait
   * of it in progress makes way for the new input at its next reconcile.
   */
  public void inputChanged(NamespacedName key, String trigger) {
    parts.waits().inputChanged(key, trigger);
  }

  public Outcome reconcile(Kustomization cached) {
    Kustomization ks = parts.statuses().current(cached);
    if (ks == null) {
      parts.statuses().forget(cached);
      return Outcome.suspended(); // gone: its deletion was handled
    }
    Outcome outcome = reconcileOnce(ks);
    parts.observer().reconciled("Kustomization", NamespacedName.of(ks), outcome.kind());
    return outcome;
  }

  private Outcome reconcileOnce(Kustomization ks) {
    if (ks.getSpec() != null && ks.getSpec().suspended()) {
      return Outcome.suspended();
    }
    parts.manifestBuilder().expectBuilds();
    return stages(Attempt.start(ks, parts.clock().instant(), parts.waits()));
  }

  /**
   * The stages of one attempt, each handing the next what it found; a stage that cannot go on
   * throws a {@link StageFailure}, and the status says how far the attempt got.
   */
  private Outcome stages(Attempt start) {
    Attempt attempt = start;
    try {
      attempt = preparation.prepare(attempt);
      gate.check(attempt);
      attempt = identities.reachRemote(attempt);
      attempt = artifacts.find(attempt);
      Optional<Outcome> waiting = health.pending(attempt);
      if (waiting.isPresent()) {
        return waiting.get();
      }
      status.announce(attempt);
      // The built objects hold room of the builds' heap until their apply is done.
      try (BuildStage.Built built =
          BuildStage.run(parts.manifestBuilder(), parts.settings(), attempt)) {
        attempt = applying.apply(attempt, built);
      }
      applying.prune(attempt);
      return health.await(attempt);
    } catch (StageFailure failure) {
      return status.failed(failure.reached(attempt), failure);
    } catch (ArtifactLookup.OnItsWay e) {
      LOG.debug("{}: {}", attempt.key(), e.getMessage());
      return Outcome.waiting(ArtifactLookup.ON_ITS_WAY_POLL);
    } catch (StackOverflowError e) {
      // Unwound to here: writing the status is safe (see StackGuard).
      return status.failed(
          attempt,
          StageFailure.tooDeep(
              Reason.BUILD_FAILED, "the Kustomization, its source or its objects"));
    } catch (KubernetesClientException e) {
      // Outside what a stage reports itself (e.g. writing Progressing while the API server is
      // down): nothing can be written to the status, so a log line and a retry.
      LOG.warn(
          "{}: the API server could not be reached or refused a request: {}",
          attempt.key(),
          e.getMessage());
      return status.retryLater(attempt);
    } catch (WriteFence.Refused e) {
      // Nothing more is written for it here, not even a failed status: the caller lets it go.
      throw e;
    } catch (RuntimeException e) {
      // A defect, not a stage's failure: its message may quote hostile input and its stack trace
      // is no message for a user, so both go to the log only.
      LOG.error("{}: reconciliation failed with an unexpected error", attempt.key(), e);
      return status.failed(
          attempt,
          StageFailure.transientFailure(
              Reason.INTERNAL_ERROR,
              "reconciliation failed with an unexpected error ("
                  + e.getClass().getSimpleName()
                  + "); the engine's log has the details"));
    }
  }

  /**
   * One look at a Kustomization being deleted (see {@link KustomizationDeletion}): done, or when to
   * look again.
   */
  public Deletion delete(Kustomization cached) {
    // Its objects are found by the inventory the last status write recorded, not an older one.
    Kustomization ks = parts.statuses().current(cached);
    if (ks == null) {
      parts.statuses().forget(cached);
      return Deletion.DONE;
    }
    return deletion.delete(ks);
  }
}
