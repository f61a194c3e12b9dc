package dev.capstan.engine.helmrelease;

import dev.capstan.api.helm.HelmRelease;
import dev.capstan.api.helm.HelmReleaseStatus;
import dev.capstan.api.helm.ReleaseSnapshot;
import dev.capstan.api.kustomize.Inventory;
import dev.capstan.applier.inventory.InventorySet;
import dev.capstan.decryption.Plaintexts;
import dev.capstan.engine.conditions.HelmReleaseStatuses;
import dev.capstan.engine.conditions.ReleaseObservation;
import dev.capstan.engine.conditions.ReleaseObservation.HealthState;
import dev.capstan.engine.conditions.ReleaseObservationBuilder;
import dev.capstan.engine.conditions.ReleaseReason;
import dev.capstan.engine.core.NamespacedName;
import dev.capstan.engine.kustomization.ReferenceRules;
import dev.capstan.engine.pipeline.Inventories;
import dev.capstan.engine.pipeline.Outcome;
import dev.capstan.helm.release.ReleaseHistory;
import dev.capstan.helm.release.ReleaseRecord;
import dev.capstan.helm.release.ReleaseStatus;
import dev.capstan.kustomize.chart.ChartRender;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Objects;
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
 * <p>A release Released at its generation, whose chart version and values digest are those of the
 * deployed release its status last recorded, the latest record, is neither rendered nor written:
 * its objects' health is read, and the status written only when that changed it. A release whose
 * objects are not healthy yet is looked at again the same way, so a wait holds no thread; when that
 * wait ends unhealthy (past {@code spec.timeout}, or an object failed) the release failed.
 */
public final class HelmReleasePipeline {
  private static final Logger LOG = LoggerFactory.getLogger(HelmReleasePipeline.class);

  private final ReleaseParts parts;
  private final ReleaseInputs inputs;
  private final ReleaseRender render;
  private final ReleaseStatusStage status;
  private final ReleaseDependencies dependencies;

  public HelmReleasePipeline(ReleaseParts parts) {
    this.parts = parts;
    this.inputs = new ReleaseInputs(parts.charts(), parts.values(), parts.noCrossNamespaceRefs());
    this.render = new ReleaseRender(parts.renderer(), parts.capabilities());
    this.status =
        new ReleaseStatusStage(
            parts.statuses(),
            parts.clock(),
            parts.backoff(),
            parts.waitPoll(),
            parts.dependencyRequeue());
    this.dependencies = new ReleaseDependencies(new ReferenceRules(parts.noCrossNamespaceRefs()));
  }

  /**
   * The stages that act in the cluster, as the HelmRelease's service account (or the engine) for
   * one reconcile.
   */
  private record Acted(
      ReleaseRecording recording,
      ReleaseApply apply,
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
        new ReleaseHealth(actor.acting(), parts.library(), parts.clock()),
        actor.crds(),
        new ReleaseRemediation(
            new RemediationRecords(actor.store(), parts.clock(), secrets),
            apply,
            new ReleaseUninstall(actor.acting(), actor.store(), parts.charts(), parts.clock())),
        new ReleaseDrift(actor.acting()),
        secrets,
        actor);
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
  public Optional<Duration> delete(HelmRelease release) {
    // objects being uninstalled are no one's health to tell
    parts.tracking().untrack(NamespacedName.of(release));
    try {
      return ReleaseUninstall.deleting(release, parts.actors(), parts.charts(), parts.clock());
    } catch (ReleaseFailure f) {
      // an installed release whose remote cluster cannot be used: the finalizer stays, and its
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
      awaitDependencies(release, actor);
      ReleaseInputs.Inputs in = inputs.read(release);
      secrets = in.fromSecrets();
      seen.attempted(in.attempted(lastAction(release), null));
      Acted acted = actedFor(actor, secrets);
      ReleaseHistory history =
          acted.recording().unlocked(release, acted.recording().history(release));
      InventorySet previous = Inventories.toApplier(inventoryOf(release));
      Optional<Instant> deployedAt = unchangedSince(release, in, history);
      ReleaseDecision.Next next =
          ReleaseDecision.next(
              ReleaseDecision.Observed.of(
                  release,
                  in.attempted(lastAction(release), null),
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
      return failed(release, seen, f, secrets);
    } catch (KubernetesClientException e) {
      LOG.warn(
          "{}: the API server could not be reached or refused a request: {}",
          NamespacedName.of(release),
          secrets.redact(e.getMessage()));
      return Outcome.retry(parts.backoff().delay(1, Duration.ofMinutes(1)));
    }
  }

  /** Goes on only once what spec.dependsOn names is ready, as {@code actor} reads it. */
  private void awaitDependencies(HelmRelease release, ReleaseActors.Actor actor) {
    if (release.getSpec().dependencies().isEmpty()) {
      return;
    }
    ReleaseHealth health = new ReleaseHealth(actor.acting(), parts.library(), parts.clock());
    dependencies.check(release, actor.dependencies(), health.evaluator(release.getSpec()));
  }

  /**
   * When the deployed release was made, if nothing changed since it was: Released is True for the
   * current generation, the release the status last recorded ({@code status.history[0]}) is the
   * latest record and is deployed, and it was made of the chart version and values digest wanted
   * now. What was last attempted is not asked: it is written before the render, so a render or
   * record that failed would make a failed attempt look unchanged.
   */
  private static Optional<Instant> unchangedSince(
      HelmRelease release, ReleaseInputs.Inputs in, ReleaseHistory history) {
    HelmReleaseStatus st = release.getStatus();
    ReleaseSnapshot last = st == null ? null : st.latest();
    Optional<ReleaseRecord> latest = history.latest();
    if (last == null
        || !releasedAtGeneration(st, release.getMetadata().getGeneration())
        || !Objects.equals(last.chartVersion(), in.chart().revision())
        || !Objects.equals(last.configDigest(), in.configDigest())
        || !sameRenderDigests(st, RenderDigests.of(release.getSpec()))
        || latest.isEmpty()
        || latest.get().release().status() != ReleaseStatus.DEPLOYED
        || !Objects.equals(last.version(), latest.get().release().version())) {
      return Optional.empty();
    }
    try {
      return Optional.of(Instant.parse(last.lastDeployed()));
    } catch (DateTimeParseException | NullPointerException e) {
      return Optional.empty();
    }
  }

  /**
   * Whether the post-renderers and commonMetadata are those of the last successful release: a
   * change of either changes the objects, not the values, and so is an upgrade.
   */
  private static boolean sameRenderDigests(
      HelmReleaseStatus status, ReleaseObservation.RenderDigests now) {
    return Objects.equals(status.observedPostRenderersDigest(), now.postRenderers())
        && Objects.equals(status.observedCommonMetadataDigest(), now.commonMetadata());
  }

  private static boolean releasedAtGeneration(HelmReleaseStatus status, Long generation) {
    return HelmReleaseStatuses.condition(status, HelmReleaseStatuses.RELEASED)
        .filter(c -> "True".equals(c.getStatus()))
        .filter(c -> Objects.equals(c.getObservedGeneration(), generation))
        .isPresent();
  }

  /** Renders, records, applies and prunes a new version of the release. */
  private Outcome release(
      Acted acted,
      HelmRelease release,
      ReleaseInputs.Inputs in,
      boolean upgrade,
      ReleaseHistory history,
      InventorySet previous,
      ReleaseObservationBuilder seen) {
    ReleaseRender.Rendered all = render.render(release, in, upgrade);
    ChartRender rendered = all.release();
    List<GenericKubernetesResource> objects = objects(rendered, release, upgrade);
    ReleaseAdoption.Baseline baseline = baseline(release, history, upgrade);
    acted.apply().checkOwnership(release, objects, baseline, upgrade);
    List<GenericKubernetesResource> crds = crds(all, acted.crds(), upgrade);
    Instant started = parts.clock().instant();
    ReleaseRecording recording = acted.recording();
    ReleaseRecording.Pending pending =
        recording.begin(release, history, upgrade, rendered, in.values());
    String chart = rendered.chart().name() + "@" + rendered.chart().version();
    String action = upgrade ? "upgrade" : "install";
    String what = "Helm " + action + " %s for release " + pending.where() + " with chart " + chart;
    seen.attempted(in.attempted(pending.action(), null));
    InventorySet inventory;
    ReleaseSnapshot deployed;
    try {
      inventory =
          acted
              .apply()
              .apply(
                  release,
                  crds,
                  objects,
                  previous,
                  baseline,
                  ReleaseRecording.failureReason(pending));
      deployed = recording.deployed(pending, in.configDigest());
    } catch (ReleaseApply.Failed f) {
      String message = String.format(what, "failed") + ": " + f.getMessage();
      seen.attempted(in.attempted(pending.action(), since(started)))
          .inventory(Inventories.toStatus(f.inventory()))
          .phase(new ReleaseObservation.Failed(f.reason(), message, true));
      recording.failed(pending, f.getMessage(), in.configDigest()).ifPresent(seen::released);
      return status.write(release, seen.build(), acted.fromSecrets());
    } catch (RuntimeException e) {
      // Whatever stopped the release, its record is not left pending.
      try {
        recording.failed(pending, String.valueOf(e.getMessage()), in.configDigest());
      } catch (RuntimeException alsoFailed) {
        LOG.warn(
            "{}: not marked failed: {}",
            pending.where(),
            acted.fromSecrets().redact(alsoFailed.getMessage()));
      }
      throw e;
    }
    ReleaseReason reason =
        upgrade ? ReleaseReason.UPGRADE_SUCCEEDED : ReleaseReason.INSTALL_SUCCEEDED;
    seen.attempted(in.attempted(pending.action(), since(started)))
        .released(deployed)
        .renderDigests(RenderDigests.of(release.getSpec()))
        .drift(ReleaseDrift.notLooked(release, true))
        .phase(new ReleaseObservation.Released(reason, String.format(what, "succeeded")));
    return looked(
        acted, release, seen, inventory, parts.clock().instant(), upgrade, true, in.configDigest());
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
            seen.drift(), acted.health().look(release, inventory, deployedAt, upgrade));
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
        seen.phase(done.phase()).released(done.released());
        if (done.phase() instanceof ReleaseObservation.Remediated) {
          seen.drift(ReleaseDrift.notLooked(release, true)); // rolled back or uninstalled whole
        }
      }
    }
    // Written only now: a wait whose failure could not be recorded stays pending (Healthy Unknown).
    seen.health(look.health()).healthState(look.state());
    Outcome outcome = status.write(release, seen.build(), acted.fromSecrets());
    if (look.state() != HealthState.IN_PROGRESS) {
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

  /** A failed reconcile's status and log line, with what came from Secrets redacted. */
  private Outcome failed(
      HelmRelease release, ReleaseObservationBuilder seen, ReleaseFailure f, Plaintexts secrets) {
    String message = secrets.redact(f.getMessage());
    ReleaseObservation.ReleasePhase phase;
    if (f.isStalled()) {
      phase = new ReleaseObservation.Stalled(f.reason(), message);
    } else if (f.isWaiting()) {
      phase = new ReleaseObservation.Waiting(f.reason(), message);
    } else {
      phase = new ReleaseObservation.Failed(f.reason(), message, f.isReleaseFailure());
    }
    LOG.info("{}: {}", NamespacedName.of(release), message);
    try {
      return status.write(release, seen.phase(phase).build(), secrets);
    } catch (KubernetesClientException e) {
      return Outcome.retry(parts.backoff().delay(1, Duration.ofMinutes(1)));
    }
  }

  private static List<GenericKubernetesResource> objects(
      ChartRender rendered, HelmRelease release, boolean upgrade) {
    try {
      return ManifestObjects.of(rendered.manifest(), release);
    } catch (IllegalArgumentException e) {
      throw ReleaseFailure.releaseFailed(
          upgrade ? ReleaseReason.UPGRADE_FAILED : ReleaseReason.INSTALL_FAILED, e.getMessage());
    }
  }

  /**
   * The release the action replaces, its last deployed record; one this HelmRelease did not write
   * (made by {@code helm} or another controller) is adopted: continued as its next version.
   */
  private static ReleaseAdoption.Baseline baseline(
      HelmRelease release, ReleaseHistory history, boolean upgrade) {
    if (!upgrade) {
      return ReleaseAdoption.Baseline.NONE; // an install replaces nothing, as Helm's never prunes
    }
    Optional<ReleaseRecord> deployed = history.lastDeployed();
    ReleaseAdoption.Baseline baseline;
    try {
      baseline =
          ReleaseAdoption.baseline(deployed.map(ReleaseRecord::release), release.getStatus());
    } catch (IllegalArgumentException e) {
      throw ReleaseFailure.releaseFailed(
          ReleaseReason.UPGRADE_FAILED,
          "the manifest of release "
              + ReleaseRecording.where(deployed.orElseThrow().release())
              + " cannot be read: "
              + e.getMessage());
    }
    if (baseline.foreign()) {
      LOG.info(
          "{}: adopting release {}, which another client made",
          NamespacedName.of(release),
          ReleaseRecording.where(deployed.orElseThrow().release()));
    }
    return baseline;
  }

  /** The chart's CRDs the action writes, by its {@code crds} policy. */
  private static List<GenericKubernetesResource> crds(
      ReleaseRender.Rendered rendered, ReleaseActors.CrdLookup lookup, boolean upgrade) {
    try {
      return ReleaseCrds.toWrite(rendered.crds(), rendered.crdsPolicy(), lookup);
    } catch (IllegalArgumentException e) {
      throw ReleaseFailure.releaseFailed(
          upgrade ? ReleaseReason.UPGRADE_FAILED : ReleaseReason.INSTALL_FAILED, e.getMessage());
    }
  }

  private Duration since(Instant started) {
    return Duration.between(started, parts.clock().instant());
  }

  private static HelmReleaseStatus.ReleaseAction lastAction(HelmRelease release) {
    return release.getStatus() == null ? null : release.getStatus().lastAttemptedReleaseAction();
  }

  private static Inventory inventoryOf(HelmRelease release) {
    return release.getStatus() == null ? null : release.getStatus().inventory();
  }
}
