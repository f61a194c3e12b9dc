package dev.capstan.engine.pipeline;

import dev.capstan.api.common.ReconcileRequest;
import dev.capstan.api.kustomize.DeletionPolicy;
import dev.capstan.api.kustomize.HealthCheckReference;
import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.kustomize.KustomizationSpec;
import dev.capstan.api.kustomize.KustomizationStatus;
import dev.capstan.api.kustomize.SourceReference.SourceKind;
import dev.capstan.api.source.Artifact;
import dev.capstan.api.source.ExternalArtifact;
import dev.capstan.api.source.GitRepository;
import dev.capstan.api.source.OCIRepository;
import dev.capstan.applier.Action;
import dev.capstan.applier.ApplyRequest;
import dev.capstan.applier.ApplyResult;
import dev.capstan.applier.ObjectResult;
import dev.capstan.applier.Owner;
import dev.capstan.applier.ignore.IgnoreRules;
import dev.capstan.applier.inventory.InventorySet;
import dev.capstan.applier.prune.Pruner;
import dev.capstan.applier.wait.WaitResult;
import dev.capstan.engine.NamespacedName;
import dev.capstan.engine.conditions.ConditionTypes;
import dev.capstan.engine.conditions.Drift;
import dev.capstan.engine.conditions.KustomizationStatuses;
import dev.capstan.engine.conditions.Observation;
import dev.capstan.engine.conditions.Phase;
import dev.capstan.engine.conditions.Reason;
import dev.capstan.engine.dependencies.DeletionOrder;
import dev.capstan.engine.remote.RemoteClusterException;
import dev.capstan.health.AggregateHealth;
import dev.capstan.health.HealthEvaluator;
import dev.capstan.kube.ObjectRef;
import dev.capstan.source.core.SourceException;
import dev.capstan.source.oci.ArtifactDownloads;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One reconcile of a Kustomization, one method per stage: gate → source → build → apply → prune →
 * wait → status. Knows nothing of the controller framework that calls it.
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
  private final ReferenceRules rules;
  private final DependencyGate gate;
  private final HealthEvaluators evaluators;
  private final AnsweredHealth answeredHealth = new AnsweredHealth();
  private final ActingIdentities identities;
  private final RetryCounter retries = new RetryCounter();
  private final DependentsWait dependents;

  public KustomizationPipeline(PipelineParts parts) {
    Objects.requireNonNull(parts.view(), "parts.view");
    this.parts = parts;
    this.rules = new ReferenceRules(parts.noCrossNamespaceRefs());
    this.gate = new DependencyGate(parts.view(), rules, parts.dependencyWatching());
    this.dependents = new DependentsWait(parts.view(), rules, parts.clock());
    this.evaluators = new HealthEvaluators(parts.library(), parts.clock());
    this.identities = new ActingIdentities(parts.accounts(), parts.remotes());
  }

  /**
   * A ConfigMap or Secret that {@code key} reads changed ({@code trigger} names it): a health wait
   * of it in progress makes way for the new input at its next reconcile.
   */
  public void inputChanged(NamespacedName key, String trigger) {
    parts.waits().inputChanged(key, trigger);
  }

  public Outcome reconcile(Kustomization ks) {
    Outcome outcome = reconcileOnce(ks);
    parts.observer().reconciled("Kustomization", NamespacedName.of(ks), outcome.kind());
    return outcome;
  }

  private Outcome reconcileOnce(Kustomization ks) {
    if (ks.getSpec() != null && ks.getSpec().suspended()) {
      return Outcome.suspended();
    }
    // Read before anything of the Kustomization's inputs: a change seen later is new input.
    long configChanges = parts.waits().configChanges(NamespacedName.of(ks));
    return stages(Attempt.start(ks, parts.clock().instant(), configChanges));
  }

  /**
   * The stages of one attempt, each handing the next what it found; a stage that cannot go on
   * throws a {@link StageFailure}, and the status says how far the attempt got.
   */
  private Outcome stages(Attempt start) {
    Attempt attempt = start;
    try {
      attempt = prepare(attempt);
      HealthEvaluator evaluator = evaluator(attempt);
      gate(attempt, evaluator);
      attempt = reachRemote(attempt);
      StoredArtifact artifact = source(attempt);
      attempt = attempt.sourced(artifact.revision(), artifact.originRevision().orElse(null));
      Optional<WaitTracker.PendingWait> pending = parts.waits().get(attempt.key());
      if (pending.isPresent()) {
        WaitTracker.Change change = pending.get().inputs().changeTo(attempt.inputs());
        if (change == WaitTracker.Change.NONE) {
          attempt = attempt.continuing(pending.get());
          return checkWait(attempt, pending.get());
        }
        if (!parts.settings().cancelWaits()) {
          return finishStaleWait(attempt, pending.get());
        }
        cancelWait(attempt, pending.get(), change);
      }
      announce(attempt);
      ApplyResult applied;
      // The built objects hold room of the builds' heap until their apply is done.
      try (BuildStage.Built built = build(attempt, artifact)) {
        attempt = attempt.built(built.digest(), built.plaintexts());
        applied = apply(attempt, built.objects());
      }
      attempt = attempt.applied(applied.inventory(), drift(attempt, applied));
      int pruned = prune(attempt, applied);
      parts.observer().objectsChanged(attempt.key(), changed(applied.objects()), pruned);
      List<ObjectRef> waited = waitSet(attempt);
      if (waited.isEmpty()) {
        return succeededWithoutWait(attempt, evaluator, applied);
      }
      track(attempt, evaluator, Optional.empty());
      return startWait(attempt, evaluator, waited);
    } catch (StageFailure failure) {
      return failed(failure.reached(attempt), failure);
    } catch (StackOverflowError e) {
      // Unwound to here: writing the status is safe (see StackGuard).
      return failed(
          attempt,
          StackGuard.tooDeep(Reason.BUILD_FAILED, "the Kustomization, its source or its objects"));
    } catch (KubernetesClientException e) {
      // Outside what a stage reports itself (e.g. writing Progressing while the API server is
      // down): nothing can be written to the status, so a log line and a retry.
      LOG.warn(
          "{}: the API server could not be reached or refused a request: {}",
          attempt.key(),
          e.getMessage());
      return retryLater(attempt);
    } catch (RuntimeException e) {
      // A defect, not a stage's failure: its message may quote hostile input and its stack trace
      // is no message for a user, so both go to the log only.
      LOG.error("{}: reconciliation failed with an unexpected error", attempt.key(), e);
      return failed(
          attempt,
          StageFailure.transientFailure(
              Reason.INTERNAL_ERROR,
              "reconciliation failed with an unexpected error ("
                  + e.getClass().getSimpleName()
                  + "); the engine's log has the details"));
    }
  }

  /**
   * One look at a Kustomization being deleted. Nothing is watched for it any more; its objects are
   * deleted as its deletionPolicy says, but only once the Kustomizations being deleted that depend
   * on it are gone (reverse dependency order, {@link DeletionOrder}). A deletion its API server
   * refuses keeps the Kustomization, and is tried again.
   */
  public Deletion delete(Kustomization ks) {
    NamespacedName key = NamespacedName.of(ks);
    parts.waits().forget(key);
    parts.tracking().untrack(key);
    gate.forget(key);
    KustomizationSpec spec = ks.getSpec();
    KustomizationStatus status = ks.getStatus();
    if (spec == null || status == null || status.inventory() == null || spec.suspended()) {
      return deleted(ks);
    }
    DeletionPolicy policy = spec.effectiveDeletionPolicy();
    if (!policy.deletesObjects(spec.pruneEnabled())) {
      return deleted(ks);
    }
    Optional<Deletion> notYet = inOrder(ks);
    if (notYet.isPresent()) {
      return notYet.get();
    }
    try {
      return deleteObjects(
          ks, policy.waitsForTermination() || dependents.dependencyBeingDeleted(ks));
    } catch (RemoteClusterException e) {
      // As Flux does, the deletion is not held up by a remote cluster that cannot be used.
      LOG.warn("{}: its objects on the remote cluster were not deleted: {}", key, e.getMessage());
      return deleted(ks);
    }
  }

  /**
   * Empty when the Kustomization's objects may be deleted now; otherwise when to look again. What
   * the user should know (a wait, or an order that could not be kept) goes on its status.
   */
  private Optional<Deletion> inOrder(Kustomization ks) {
    DeletionOrder.Verdict verdict = dependents.look(ks);
    if (verdict.waits()) {
      writeDeleting(ks, new Phase.Waiting(Reason.WAITING_FOR_DEPENDENTS, verdict.message()), null);
      return Optional.of(Deletion.again(parts.waitPoll()));
    }
    if (verdict.warning()) {
      LOG.warn("{}: {}", NamespacedName.of(ks), verdict.message());
      writeDeleting(
          ks, new Phase.Failed(Reason.DEPENDENTS_NOT_DELETED, verdict.message(), false), null);
    }
    return Optional.empty();
  }

  /**
   * Deletes the objects of the inventory. Refused deletions keep the Kustomization, with only those
   * objects in its inventory, and are tried again (as Flux does); objects whose deletion was
   * accepted but did not end within the timeout are reported and let go.
   */
  private Deletion deleteObjects(Kustomization ks, boolean waitForTermination) {
    NamespacedName key = NamespacedName.of(ks);
    List<ObjectResult> results =
        identities
            .actingFor(ks)
            .pruner()
            .deleteInventory(
                Inventories.toApplier(ks.getStatus().inventory()),
                owner(key),
                Timings.forDeletion(ks.getSpec()),
                waitForTermination);
    List<ObjectResult> failed = results.stream().filter(ObjectResult::failed).toList();
    if (failed.isEmpty()) {
      return deleted(ks);
    }
    String message = "deleting its objects failed: " + describe(failed);
    if (failed.stream().allMatch(Pruner::stillTerminating)) {
      LOG.warn("{}: {}", key, message);
      writeDeleting(ks, new Phase.Failed(Reason.PRUNE_FAILED, message, false), null);
      return deleted(ks);
    }
    LOG.info("{}: {}; trying again", key, message);
    writeDeleting(
        ks,
        new Phase.Failed(Reason.PRUNE_FAILED, message, false),
        InventorySet.of(failed.stream().map(ObjectResult::ref).toList()));
    return Deletion.again(parts.backoff().delay(retries.failed(key), deletionRetryCap(ks)));
  }

  /** The retryInterval, or a minute when the spec's durations cannot be read. */
  private static Duration deletionRetryCap(Kustomization ks) {
    try {
      return Timings.of(ks.getSpec()).retryInterval();
    } catch (StageFailure e) {
      return Duration.ofMinutes(1);
    }
  }

  /** The deletion is done: everything kept for the Kustomization is let go. */
  private Deletion deleted(Kustomization ks) {
    NamespacedName key = NamespacedName.of(ks);
    dependents.forget(key);
    retries.reset(key);
    parts.statuses().forget(ks);
    parts.remotes().forget(key);
    return Deletion.DONE;
  }

  /** Says on the status of a Kustomization being deleted what its deletion waits for or met. */
  private void writeDeleting(Kustomization ks, Phase phase, InventorySet inventory) {
    Attempt attempt =
        Attempt.start(
                ks, parts.clock().instant(), parts.waits().configChanges(NamespacedName.of(ks)))
            .withInventory(inventory);
    try {
      write(attempt, phase);
    } catch (KubernetesClientException e) {
      LOG.warn("{}: the status could not be written: {}", attempt.key(), e.getMessage());
    }
  }

  // ---- stages -------------------------------------------------------------------------------

  /** The spec present and supported, its timings read, and who acts for it in this cluster. */
  private Attempt prepare(Attempt attempt) {
    KustomizationSpec spec = attempt.object().getSpec();
    if (spec == null) {
      throw StageFailure.terminal(Reason.INVALID_SPEC, "spec is missing");
    }
    refuseUnsupported(spec);
    Timings timings = Timings.of(spec);
    return attempt.prepared(timings, identities.local(attempt.object()));
  }

  private HealthEvaluator evaluator(Attempt attempt) {
    return evaluators.forExpressions(attempt.object().getSpec().healthCheckExprs());
  }

  /** Goes on only once what the Kustomization depends on is ready. */
  private void gate(Attempt attempt, HealthEvaluator evaluator) {
    // dependsOn names objects of the cluster the Kustomization lives in, as Flux's does.
    ActingIdentity identity = attempt.identity();
    gate.check(
        attempt.object(),
        new ObjectDependencies(identity.local().client(), identity.reader()),
        evaluator);
  }

  /** The remote cluster of spec.kubeConfig, reached; no change without one. */
  private Attempt reachRemote(Attempt attempt) {
    return attempt.actingAs(identities.reachRemote(attempt.object(), attempt.identity()));
  }

  private StoredArtifact source(Attempt attempt) {
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
      case ExternalArtifact -> externalSource(key, attempt);
    };
  }

  private StoredArtifact gitSource(NamespacedName key) {
    GitRepository repo =
        parts.view().gitRepository(key).orElseThrow(() -> notFound("GitRepository", key));
    Artifact artifact = repo.getStatus() == null ? null : repo.getStatus().artifact();
    return stored("GitRepository", key, artifact, readyMessage(conditionsOf(repo)));
  }

  private StoredArtifact ociSource(NamespacedName key) {
    OCIRepository repo =
        parts.view().ociRepository(key).orElseThrow(() -> notFound("OCIRepository", key));
    Artifact artifact = repo.getStatus() == null ? null : repo.getStatus().artifact();
    List<Condition> conditions = repo.getStatus() == null ? null : repo.getStatus().conditions();
    return stored("OCIRepository", key, artifact, readyMessage(conditions));
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
    Path tree =
        parts
            .trees()
            .forDigest(artifact.digest())
            .orElseThrow(
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
        parts.view().externalArtifact(key).orElseThrow(() -> notFound("ExternalArtifact", key));
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
          parts
              .trees()
              .external(
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

  /**
   * An artifact found in the engine's store: its revision, digest and tree, and the revision of the
   * source it was made from when its producer says so (an OCI artifact's
   * org.opencontainers.image.revision annotation), for status.lastAppliedOriginRevision.
   */
  record StoredArtifact(
      String revision, String digest, Path tree, Optional<String> originRevision) {}

  private BuildStage.Built build(Attempt attempt, StoredArtifact artifact) {
    return BuildStage.run(
        parts.builder(),
        parts.settings(),
        attempt.object().getSpec(),
        attempt.namespace(),
        attempt.identity().local().client(),
        artifact.tree(),
        artifact.digest(),
        artifact.revision());
  }

  private ApplyResult apply(Attempt attempt, List<GenericKubernetesResource> objects) {
    KustomizationSpec spec = attempt.object().getSpec();
    String namespace =
        spec.targetNamespace() == null || spec.targetNamespace().isEmpty()
            ? attempt.namespace()
            : spec.targetNamespace();
    ApplyRequest request =
        ApplyRequest.of(objects, owner(attempt.key()))
            .withForce(spec.forceEnabled())
            .withTimeout(attempt.timings().timeout())
            .withDefaultNamespace(namespace)
            .withIgnore(ignoreRules(spec))
            .withDrift(
                ApplySettings.driftPolicy(spec, appliedBefore(attempt), attempt.previous().refs()))
            .withPolicy(parts.settings().applyPolicy())
            .withFirstApply(attempt.previous().entries().isEmpty());
    ApplyResult result;
    try {
      result = attempt.identity().acting().applier().apply(request);
    } catch (KubernetesClientException e) {
      // Cut short (the API server went away, say): which objects were written is not known, so
      // the inventory stays as it was until the retry has applied the revision in full.
      throw StageFailure.transientFailure(Reason.APPLY_FAILED, "apply failed: " + e.getMessage())
          .after(attempt.withInventory(attempt.previous()));
    }
    if (!result.succeeded()) {
      List<ObjectRef> written =
          result.objects().stream()
              .filter(r -> !r.failed() && r.action() != Action.SKIPPED)
              .map(ObjectResult::ref)
              .toList();
      throw StageFailure.transientFailure(
              Reason.APPLY_FAILED, "apply failed: " + describe(result.failures()))
          .after(attempt.withInventory(Inventories.union(attempt.previous(), written)));
    }
    return result;
  }

  /** The compiled ignore rules; a rule that cannot be used stops the Kustomization. */
  private static IgnoreRules ignoreRules(KustomizationSpec spec) {
    try {
      return ApplySettings.ignoreRules(spec);
    } catch (IllegalArgumentException e) {
      throw StageFailure.terminal(Reason.INVALID_SPEC, e.getMessage());
    }
  }

  /** Whether the last successful apply was of this revision and this spec. */
  private static boolean appliedBefore(Attempt attempt) {
    KustomizationStatus status = attempt.object().getStatus();
    return status != null
        && Objects.equals(status.lastAppliedRevision(), attempt.revision())
        && Objects.equals(status.observedGeneration(), attempt.generation());
  }

  /** The drift the apply reported (warn mode), its messages kept free of decrypted content. */
  private static Drift drift(Attempt attempt, ApplyResult result) {
    if (!ApplySettings.reportsDrift(attempt.object().getSpec())) {
      return Drift.NOT_REPORTED;
    }
    return Drift.reported(
        result.objects().stream()
            .filter(r -> r.action() == Action.DRIFTED)
            .map(
                r ->
                    new Drift.DriftedObject(
                        r.ref().toString(), attempt.plaintexts().redact(r.reason()), r.fields()))
            .toList());
  }

  /** Prunes what left the source; returns how many objects were deleted. */
  private int prune(Attempt attempt, ApplyResult applied) {
    if (!attempt.object().getSpec().pruneEnabled()) {
      return 0;
    }
    List<ObjectResult> results =
        attempt
            .identity()
            .acting()
            .pruner()
            .prune(
                attempt.previous(),
                applied.inventory(),
                owner(attempt.key()),
                attempt.timings().timeout());
    List<ObjectResult> failures = results.stream().filter(ObjectResult::failed).toList();
    if (!failures.isEmpty()) {
      throw StageFailure.transientFailure(
              Reason.PRUNE_FAILED, "prune failed: " + describe(failures))
          .after(
              attempt.withInventory(
                  Inventories.union(
                      applied.inventory(), failures.stream().map(ObjectResult::ref).toList())));
    }
    return (int) results.stream().filter(r -> r.action() == Action.DELETED).count();
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
      outcome = succeeded(answered.map(attempt::withHealth).orElse(attempt));
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
        return succeeded(attempt);
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
        write(
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
    write(canceled, new Phase.Failed(Reason.HEALTH_CHECK_CANCELED, message, false));
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
      outcome = failed(failure.reached(earlier), failure);
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

  // ---- status -------------------------------------------------------------------------------

  /** Says "in progress" before the slow stages, unless this is a repeat of what is applied. */
  private void announce(Attempt attempt) {
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

  private Outcome succeeded(Attempt attempt) {
    retries.reset(attempt.key());
    String warning =
        parts
            .builder()
            .unconfined()
            .map(why -> "built without the kernel's sandbox (" + why + ")")
            .orElse("");
    write(attempt, new Phase.Succeeded(attempt.revision(), warning));
    return Outcome.succeeded(attempt.timings().interval());
  }

  private Outcome failed(Attempt attempt, StageFailure reported) {
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

  private Outcome retryLater(Attempt attempt) {
    return Outcome.retry(
        parts.backoff().delay(retries.failed(attempt.key()), retryInterval(attempt)));
  }

  /** The spec's retryInterval; a minute when the spec could not be read that far. */
  private static Duration retryInterval(Attempt attempt) {
    return attempt.timings() == null ? Duration.ofMinutes(1) : attempt.timings().retryInterval();
  }

  /** The status of how far {@code attempt} got; its inventory turns into the status's here. */
  private void write(Attempt attempt, Phase phase) {
    Instant now = parts.clock().instant();
    Observation observation =
        new Observation(
            attempt.generation(),
            now,
            attempt.requestedAt(),
            attempt.revision(),
            phase,
            attempt.inventory() == null ? null : Inventories.toStatus(attempt.inventory()),
            attempt.health(),
            attempt.drift(),
            attempt.digest() == null
                ? null
                : new Observation.Reconciled(
                    attempt.digest(),
                    Duration.between(attempt.since(), now),
                    attempt.revision(),
                    attempt.originRevision()));
    KustomizationStatus next =
        KustomizationStatuses.next(attempt.object().getStatus(), observation);
    parts.statuses().write(attempt.object(), next);
  }

  // ---- helpers ------------------------------------------------------------------------------

  /**
   * Fields of Flux's API that Capstan accepts but cannot do what they ask: refused, never ignored.
   */
  private static void refuseUnsupported(KustomizationSpec spec) {
    if (spec.decryption() != null
        && spec.decryption().serviceAccountName() != null
        && !spec.decryption().serviceAccountName().isEmpty()) {
      throw StageFailure.terminal(
          Reason.INVALID_SPEC,
          "spec.decryption.serviceAccountName is not supported: Capstan has no cloud KMS"
              + " providers; decrypt with the age or OpenPGP keys of spec.decryption.secretRef");
    }
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

  private static Owner owner(NamespacedName key) {
    return new Owner(key.name(), key.namespace());
  }

  private static int changed(List<ObjectResult> results) {
    return (int)
        results.stream()
            .filter(r -> r.action() == Action.CREATED || r.action() == Action.CONFIGURED)
            .count();
  }

  /** Failing objects in lexicographic order, each with the API server's reason. */
  private static String describe(List<ObjectResult> failures) {
    return failures.stream()
        .sorted(Comparator.comparing((ObjectResult r) -> r.ref().toString()))
        .map(r -> r.ref() + ": " + r.reason())
        .collect(Collectors.joining("; "));
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
