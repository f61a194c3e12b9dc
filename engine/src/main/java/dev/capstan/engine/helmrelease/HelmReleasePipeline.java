package dev.capstan.engine.helmrelease;

import dev.capstan.api.helm.HelmRelease;
import dev.capstan.api.helm.HelmReleaseStatus;
import dev.capstan.applier.inventory.InventorySet;
import dev.capstan.decryption.Plaintexts;
import dev.capstan.engine.conditions.ReleaseObservation;
import dev.capstan.engine.conditions.ReleaseObservation.HealthState;
import dev.capstan.engine.conditions.ReleaseObservationBuilder;
import dev.capstan.engine.conditions.ReleaseReason;
import dev.capstan.engine.core.NamespacedName;
import dev.capstan.engine.kustomization.ReferenceRules;
import dev.capstan.engine.pipeline.Inventories;
import dev.capstan.engine.pipeline.Outcome;
import dev.capstan.health.AggregateHealth;
import dev.capstan.health.status.Status;
import dev.capstan.helm.release.ReleaseHistory;
import dev.capstan.helm.release.ReleaseRecord;
import dev.capstan.helm.release.ReleaseStatus;
import dev.capstan.kustomize.chart.ChartRender;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One reconcile of a HelmRelease, one call per stage: dependsOn ({@link ReleaseDependencies}) →
 * chart and values → what to do next ({@link ReleaseDecision}) → (unchanged: health only) → render
 * → pending release record → apply and prune → deployed (or failed) record → health → status; or,
 * after a failed install or upgrade, its remediation ({@link ReleaseRemediation}: rollback or
 * uninstall) or a stall when no retry remains. Knows nothing of the controller framework that calls
 * it.
 *
 * <p>A Released release whose chart, values digest and target are those of the deployed release its
 * status last recorded, the latest record ({@link ReleaseUnchanged}), is neither rendered nor
 * written, whatever else of its spec changed: its objects' health is read, and the status written
 * only when that changed it. A release whose objects are not healthy yet is looked at again the
 * same way, so a wait holds no thread; when that wait ends unhealthy (past {@code spec.timeout}, or
 * an object failed) the release failed.
 */
public final class HelmReleasePipeline {
  private static final Logger LOG = LoggerFactory.getLogger(HelmReleasePipeline.class);

  private final ReleaseParts parts;
  private final ReleaseInputs inputs;
  private final ReleaseRender render;
  private final ReleaseStatusStage status;
  private final ReleaseDependencies dependencies;
  private final ReleaseEvaluators evaluators;

  public HelmReleasePipeline(ReleaseParts parts) {
    this.parts = parts;
    this.inputs = new ReleaseInputs(parts.charts(), parts.values(), parts.noCrossNamespaceRefs());
    ChartRendering renderer = parts.renderer();
    this.render =
        new ReleaseRender(
            request -> {
              parts.observer().chartRendered("HelmRelease");
              return renderer.render(request);
            },
            new ReleaseCapabilities(parts.capabilities(), parts.remoteCapabilities()));
    this.status =
        new ReleaseStatusStage(
            parts.statuses(),
            parts.clock(),
            parts.backoff(),
            parts.waitPoll(),
            parts.dependencyRequeue());
    this.dependencies = new ReleaseDependencies(new ReferenceRules(parts.noCrossNamespaceRefs()));
    this.evaluators = new ReleaseEvaluators(parts.library(), parts.clock());
  }

  /**
   * The stages that act in the cluster, as the HelmRelease's service account (or the engine) for
   * one reconcile.
   */
  private record Acted(
      ReleaseRecording recording,
      ReleaseApply apply,
      ReleaseHooks hooks,
      ReleaseHealth health,
      ReleaseActors.CrdLookup crds,
      ReleaseRemediation remediation,
      ReleaseDrift drift,
      Plaintexts fromSecrets,
      ReleaseActors.Actor actor) {}

  private Acted actedFor(ReleaseActors.Actor actor, Plaintexts secrets) {
    ReleaseApply apply = new ReleaseApply(actor.acting(), actor.claims());
    return new Acted(
        new ReleaseRecording(actor.store(), parts.clock(), secrets),
        apply,
        new ReleaseHooks(actor.acting(), actor.store(), parts.clock()),
        new ReleaseHealth(actor.acting(), evaluators, parts.clock()),
        actor.crds(),
        new ReleaseRemediation(
            new RemediationRecords(actor.store(), parts.clock(), secrets),
            apply,
            ReleaseUninstall.of(actor, parts, evaluators),
            HookEventRun.of(actor, parts, evaluators)),
        new ReleaseDrift(actor.acting()),
        secrets,
        actor);
  }

  /** The health evaluators all reconciles share. */
  ReleaseEvaluators evaluators() {
    return evaluators;
  }

  public Outcome reconcile(HelmRelease cached) {
    // A cache behind the last status written would make that release look made by another client.
    HelmRelease release = parts.statuses().current(cached);
    if (release == null) {
      return Outcome.suspended();
    }
    NamespacedName key = NamespacedName.of(release);
    parts.tracking().reconciling(key);
    Outcome outcome;
    try {
      outcome = reconcileOnce(release);
    } finally {
      parts.tracking().reconciled(key);
    }
    parts.observer().reconciled("HelmRelease", key, outcome.kind());
    return outcome;
  }

  /** One look at a HelmRelease being deleted: empty when it may go, else when to look again. */
  public Optional<Duration> delete(HelmRelease cached) {
    // objects being uninstalled are no one's health to tell
    parts.tracking().untrack(NamespacedName.of(cached));
    // the status last written says which release is installed (ReleaseTarget.recorded)
    HelmRelease release;
    try {
      release = parts.statuses().current(cached);
    } catch (KubernetesClientException e) {
      return Optional.of(Duration.ofSeconds(10));
    }
    if (release == null) { // gone: nothing is left to uninstall for, nothing to keep for it
      parts.charts().forget(cached);
      parts.actors().forget(cached);
      return Optional.empty();
    }
    try {
      return ReleaseUninstall.deleting(release, parts, evaluators);
    } catch (ReleaseFailure f) {
      // a remote cluster that cannot be used, a hook that failed: the finalizer stays, and its
      // retries back off as those of a reconcile failed before any attempt
      LOG.warn("{}: not uninstalled yet: {}", NamespacedName.of(release), f.getMessage());
      // the failures counted from the last status written, which a cache may not have yet
      HelmRelease current = parts.statuses().current(release);
      if (current == null) {
        return Optional.empty(); // gone: no finalizer is left to keep
      }
      ReleaseObservation seen =
          ReleaseStatusStage.observe(current)
              .phase(
                  new ReleaseObservation.Failed(
                      ReleaseReason.UNINSTALL_FAILED, "uninstall failed: " + f.getMessage(), false))
              .build();
      return status.write(current, seen, Plaintexts.NONE).requeueAfter();
    }
  }

  private Outcome reconcileOnce(HelmRelease release) {
    if (release.getSpec() == null || release.getSpec().suspended()) {
      return Outcome.suspended();
    }
    ReleaseObservationBuilder seen =
        ReleaseStatusStage.observe(release).drift(ReleaseDrift.notLooked(release, false));
    // Values from Secrets, which a failure's message may quote: redacted from every message.
    Plaintexts secrets = Plaintexts.NONE;
    try {
      ReleaseDrift.ignoreRules(release); // a rule that cannot be used stalls before anything else
      ReleaseActors.Actor actor = parts.actors().actorFor(release);
      dependencies.await(release, actor, evaluators, parts.clock());
      ReleaseInputs.Inputs in = inputs.read(release);
      secrets = in.fromSecrets();
      Acted acted = actedFor(actor, secrets);
      Optional<String> moved = ReleaseTarget.changed(release, in.chart());
      if (moved.isPresent()) {
        return retargeted(acted, release, moved.get(), seen);
      }
      seen.storageNamespace(release.storageNamespace())
          .attempted(in.attempted(ReleaseStatusStage.lastAction(release), null));
      ReleaseHistory history = acted.recording().history(release);
      Optional<ReleaseRecording.Pending> waiting = ReleaseResume.of(release, in, history);
      if (waiting.isPresent()) {
        return resumed(acted, release, in, waiting.get(), history, seen);
      }
      history = acted.recording().unlocked(release, history);
      InventorySet previous = Inventories.toApplier(ReleaseStatusStage.inventoryOf(release));
      Optional<Instant> deployedAt = ReleaseUnchanged.since(release, in, history);
      ReleaseDecision.Next next =
          ReleaseDecision.next(
              ReleaseDecision.Observed.of(
                  release,
                  in.attempted(ReleaseStatusStage.lastAction(release), null),
                  history,
                  deployedAt.isPresent()));
      if (next instanceof ReleaseDecision.Look look) {
        if (!look.waitPending()) { // in sync, no wait pending: where Flux looks for drift
          seen.drift(
              acted.drift().look(release, history.latest().orElseThrow(), previous, secrets));
        }
        return looked(
            acted,
            release,
            seen.phase(new ReleaseObservation.Unchanged()),
            previous,
            deployedAt.orElseThrow(),
            HelmReleaseStatus.ReleaseAction.upgrade
                .name()
                .equals(release.getStatus().latest().action()),
            look.waitPending(),
            in.configDigest());
      }
      if (next instanceof ReleaseDecision.Release how) {
        return release(acted, release, in, how.upgrade(), history, previous, seen);
      }
      return remediate(acted, release, next, history, previous, seen);
    } catch (ReleaseFailure f) {
      return status.failed(release, seen, f, secrets);
    } catch (KubernetesClientException e) {
      LOG.warn(
          "{}: the API server could not be reached or refused a request: {}",
          NamespacedName.of(release),
          secrets.redact(e.getMessage()));
      return Outcome.retry(parts.backoff().delay(1, Duration.ofMinutes(1)));
    }
  }

  /** The release recorded uninstalled first, its target having changed ({@link ReleaseTarget}). */
  private Outcome retargeted(
      Acted acted, HelmRelease release, String why, ReleaseObservationBuilder seen) {
    parts.tracking().untrack(NamespacedName.of(release));
    ReleaseUninstall uninstall = ReleaseUninstall.of(acted.actor(), parts, evaluators);
    seen.phase(ReleaseTarget.uninstalled(release, why, uninstall));
    ReleaseTarget.forgotten(release, seen);
    return status.write(release, seen.build(), acted.fromSecrets());
  }

  /** Renders, records, applies and prunes a new version of the release, running its hooks. */
  private Outcome release(
      Acted acted,
      HelmRelease release,
      ReleaseInputs.Inputs in,
      boolean upgrade,
      ReleaseHistory history,
      InventorySet previous,
      ReleaseObservationBuilder seen) {
    ReleaseRender.Rendered all = render.render(release, in, upgrade, acted.actor().cluster());
    ChartRender rendered = all.release();
    Optional<String> renamed = ReleaseTarget.renamed(release, rendered.chart().name());
    if (renamed.isPresent()) { // a chart whose name only its render tells (an OCI artifact's)
      return retargeted(acted, release, renamed.get(), seen);
    }
    List<GenericKubernetesResource> objects = ReleaseWork.objects(rendered, release, upgrade);
    ReleaseAdoption.Baseline baseline = ReleaseWork.baseline(release, history, upgrade);
    acted.apply().checkOwnership(release, objects, baseline, upgrade);
    ReleaseNamespace.prepare(release, objects, acted.actor().namespaces(), upgrade);
    List<GenericKubernetesResource> crds = ReleaseWork.crds(all, acted.crds(), upgrade);
    ReleaseRecording.Pending pending =
        acted
            .recording()
            .begin(
                release,
                history,
                upgrade,
                rendered,
                in.values(),
                ReleaseHooks.of(rendered.hooks()));
    seen.attempted(in.attempted(pending.action(), null));
    return ran(
        acted,
        release,
        in,
        pending,
        new ReleaseRun.Work(
            crds, objects, previous, baseline, in.configDigest(), acted.health().hookEvaluator()),
        seen);
  }

  /** An install or upgrade waiting for one of its hooks, gone on with ({@link ReleaseResume}). */
  private Outcome resumed(
      Acted acted,
      HelmRelease release,
      ReleaseInputs.Inputs in,
      ReleaseRecording.Pending pending,
      ReleaseHistory history,
      ReleaseObservationBuilder seen) {
    ReleaseRun.Work work =
        ReleaseResume.work(
            release, in, pending, history, acted.apply(), acted.health().hookEvaluator());
    seen.attempted(in.attempted(pending.action(), null));
    return ran(acted, release, in, pending, work, seen);
  }

  /** The release run on from its pending record, and the status of how far it got. */
  private Outcome ran(
      Acted acted,
      HelmRelease release,
      ReleaseInputs.Inputs in,
      ReleaseRecording.Pending pending,
      ReleaseRun.Work work,
      ReleaseObservationBuilder seen) {
    ReleaseRun.Result result =
        new ReleaseRun(acted.recording(), acted.apply(), acted.hooks(), parts.clock())
            .run(release, pending, work);
    boolean upgrade = pending.action() == HelmReleaseStatus.ReleaseAction.upgrade;
    String what = ReleaseRun.what(pending);
    Duration took = ReleaseRun.took(pending, parts.clock());
    if (result instanceof ReleaseRun.HookRunning running) {
      seen.inventory(Inventories.toStatus(running.inventory()))
          .phase(new ReleaseObservation.HookRunning(running.message()));
      return status.write(release, seen.build(), acted.fromSecrets());
    }
    if (result instanceof ReleaseRun.Failed f) {
      String message = String.format(what, "failed") + ": " + f.message();
      seen.attempted(in.attempted(pending.action(), took))
          .inventory(Inventories.toStatus(f.inventory()))
          .phase(new ReleaseObservation.Failed(f.reason(), message, true));
      f.snapshot().map(s -> ReleaseRecording.fromChart(s, in.chart())).ifPresent(seen::released);
      return status.write(release, seen.build(), acted.fromSecrets());
    }
    ReleaseRun.Deployed deployed = (ReleaseRun.Deployed) result;
    ReleaseReason reason =
        upgrade ? ReleaseReason.UPGRADE_SUCCEEDED : ReleaseReason.INSTALL_SUCCEEDED;
    seen.attempted(in.attempted(pending.action(), took))
        .released(ReleaseRecording.fromChart(deployed.snapshot(), in.chart()))
        .renderDigests(RenderDigests.of(release.getSpec()))
        .drift(ReleaseDrift.notLooked(release, true))
        .phase(new ReleaseObservation.Released(reason, String.format(what, "succeeded")));
    return looked(
        acted,
        release,
        seen,
        deployed.inventory(),
        parts.clock().instant(),
        upgrade,
        true,
        in.configDigest());
  }

  /**
   * One look at the health of what is deployed. A periodic look (no wait pending, no drift just
   * corrected, read with the engine's rights in its cluster) takes it from the health monitor's
   * watch, which holds the objects anyway, when the watch finds every one current: a read per
   * object at every interval was most of an unchanged release's cost. Anything else is read live,
   * so that no failure or wait is decided on a copy that may lag.
   */
  private ReleaseHealth.Look lookAt(
      Acted acted,
      HelmRelease release,
      InventorySet inventory,
      Instant deployedAt,
      boolean upgrade,
      boolean waitPending,
      ReleaseObservation.DriftSeen drift) {
    if (!waitPending && !ReleaseDrift.corrected(drift) && acted.actor().readsAsEngine()) {
      Optional<AggregateHealth> watched =
          parts
              .tracking()
              .watched(
                  NamespacedName.of(release),
                  inventory.refs(),
                  acted.health().evaluator(release.getSpec()));
      if (watched.filter(h -> h.status() == Status.Current).isPresent()) {
        return acted.health().judged(release, watched.get(), deployedAt, upgrade);
      }
    }
    return acted.health().look(release, inventory, deployedAt, upgrade);
  }

  /**
   * The health of what is deployed, written with what was seen; when the wait for it was pending
   * and ends unhealthy (past {@code spec.timeout}, or an object failed), the release failed.
   */
  private Outcome looked(
      Acted acted,
      HelmRelease release,
      ReleaseObservationBuilder seen,
      InventorySet inventory,
      Instant deployedAt,
      boolean upgrade,
      boolean waitPending,
      String configDigest) {
    ReleaseHealth.Look look =
        ReleaseDrift.afterCorrection(
            seen.drift(),
            lookAt(acted, release, inventory, deployedAt, upgrade, waitPending, seen.drift()));
    if (!waitPending
        && (look.state() == HealthState.IN_PROGRESS || look.state() == HealthState.TIMED_OUT)) {
      // the wait ended: objects progressing now do not reopen it (nor fail the release later)
      look = new ReleaseHealth.Look(look.health(), ReleaseHealth.afterWait(look.health()));
    }
    seen.inventory(Inventories.toStatus(inventory));
    boolean ended = look.state() == HealthState.TIMED_OUT || look.state() == HealthState.FAILED;
    if (waitPending && ended) {
      ReleaseHistory history = acted.recording().history(release);
      Optional<ReleaseRecord> latest =
          history.latest().filter(r -> r.release().status() == ReleaseStatus.DEPLOYED);
      if (latest.isPresent()) {
        String error =
            (look.state() == HealthState.TIMED_OUT
                    ? "timeout waiting for: "
                    : "health check failed: ")
                + look.health().message();
        ReleaseRemediation.Done done =
            acted
                .remediation()
                .waitFailed(
                    release, latest.get(), history, upgrade, error, inventory, configDigest);
        // a failed wait of the version deployed by this very reconcile keeps what it was made of
        seen.phase(done.phase())
            .released(done.released() == null ? null : done.released().keeping(seen.released()));
        if (done.phase() instanceof ReleaseObservation.Remediated) {
          seen.drift(ReleaseDrift.notLooked(release, true)); // rolled back or uninstalled whole
        }
      }
    }
    ReleaseTests tests = new ReleaseTests(acted.recording(), acted.hooks(), parts.clock());
    seen.tests(tests.look(release, look.state(), acted.health().hookEvaluator()));
    // Written only now: a wait whose failure could not be recorded stays pending (Healthy Unknown).
    seen.health(look.health()).healthState(look.state());
    Outcome outcome = status.write(release, seen.build(), acted.fromSecrets());
    if (look.state() == HealthState.IN_PROGRESS) {
      return outcome;
    }
    if (acted.actor().account().isPresent()) {
      // the monitor reads with the engine's rights: a release acting as a service account (its
      // own or the engine's default one) keeps the health its own reads found
      parts.tracking().untrack(NamespacedName.of(release));
    } else {
      // the wait is over: from now on the health monitor keeps Healthy live
      parts
          .tracking()
          .track(
              NamespacedName.of(release),
              inventory.refs(),
              acted.health().evaluator(release.getSpec()),
              acted.fromSecrets(),
              acted.actor().cluster(),
              Optional.ofNullable(look.health())); // none after a correction: Healthy kept
    }
    return outcome;
  }

  /**
   * A failed release remediated (rolled back or uninstalled), or stalled when no retry remains, as
   * {@code next} says.
   */
  private Outcome remediate(
      Acted acted,
      HelmRelease release,
      ReleaseDecision.Next next,
      ReleaseHistory history,
      InventorySet previous,
      ReleaseObservationBuilder seen) {
    ReleaseRemediation.Done done;
    // a failed test whose status write was lost is counted, and kept in the history, now
    seen.tests(
        ReleaseTests.ofLatest(release.getSpec(), ReleaseStatusStage.lastAction(release), history));
    // what was released is rolled back or uninstalled: the next deployed release is tracked anew
    parts.tracking().untrack(NamespacedName.of(release));
    if (next instanceof ReleaseDecision.Stall stall) {
      LOG.info("{}: stalled: {}", NamespacedName.of(release), stall.message());
      seen.phase(new ReleaseObservation.Stalled(stall.reason(), stall.message()));
      return status.write(release, seen.build(), acted.fromSecrets());
    } else if (next instanceof ReleaseDecision.Rollback) {
      done = acted.remediation().rollback(release, history, previous);
    } else {
      done = acted.remediation().uninstall(release, history, previous);
    }
    LOG.info(
        "{}: {}",
        NamespacedName.of(release),
        acted.fromSecrets().redact(((ReleaseObservation.Remediated) done.phase()).message()));
    // a rollback applies the old version whole, an uninstall leaves nothing: no drift remains
    seen.phase(done.phase())
        .inventory(Inventories.toStatus(done.inventory()))
        .drift(ReleaseDrift.notLooked(release, true));
    if (done.released() != null) {
      seen.released(done.released());
    }
    return status.write(release, seen.build(), acted.fromSecrets());
  }
}
