package dev.capstan.engine.helmrelease;

import dev.capstan.api.helm.HelmRelease;
import dev.capstan.api.helm.HelmReleaseSpec;
import dev.capstan.api.helm.HelmReleaseStatus.ReleaseAction;
import dev.capstan.api.helm.ReleaseSnapshot;
import dev.capstan.applier.inventory.InventorySet;
import dev.capstan.engine.conditions.ReleaseReason;
import dev.capstan.health.HealthEvaluator;
import dev.capstan.helm.release.HelmTime;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * An install or upgrade from its pending record on, as Helm runs one: the chart's CRDs, the {@code
 * pre-} hooks, the objects applied and pruned, the {@code post-} hooks, then the record deployed. A
 * hook still running leaves the record pending and the run waiting; the next reconcile goes on from
 * the record ({@link ReleaseHooks} keeps each hook's state in it). A failure marks the record
 * failed, with the error as its description.
 */
final class ReleaseRun {
  private final ReleaseRecording recording;
  private final ReleaseApply apply;
  private final ReleaseHooks hooks;
  private final Clock clock;

  ReleaseRun(ReleaseRecording recording, ReleaseApply apply, ReleaseHooks hooks, Clock clock) {
    this.recording = recording;
    this.apply = apply;
    this.hooks = hooks;
    this.clock = clock;
  }

  /** How far the run got. */
  sealed interface Result {}

  /** The record is deployed; {@code inventory} is what the release holds now. */
  record Deployed(ReleaseSnapshot snapshot, InventorySet inventory) implements Result {}

  /** A hook is running; the record stays pending. */
  record HookRunning(String message, InventorySet inventory) implements Result {}

  /** The install or upgrade failed; {@code snapshot} is the failed record, if it was written. */
  record Failed(
      ReleaseReason reason,
      String message,
      InventorySet inventory,
      Optional<ReleaseSnapshot> snapshot)
      implements Result {}

  /** What the run works with: the rendered objects (none on a resumed run past its apply). */
  record Work(
      List<GenericKubernetesResource> crds,
      List<GenericKubernetesResource> objects,
      InventorySet previous,
      ReleaseAdoption.Baseline baseline,
      String configDigest,
      HealthEvaluator evaluator) {}

  /** Runs {@code pending} on from where its record stands. */
  Result run(HelmRelease release, ReleaseRecording.Pending pending, Work work) {
    boolean upgrade = pending.action() == ReleaseAction.upgrade;
    HookEvent pre = HookEvent.pre(upgrade);
    HookEvent post = HookEvent.post(upgrade);
    boolean runsHooks = !hooksDisabled(release.getSpec(), upgrade);
    // each hook waits spec.timeout from its own creation, as Helm's; this is for a lost start time
    Instant began = began(pending, clock.instant());
    ReleaseReason failure = ReleaseRecording.failureReason(pending);
    ReleaseRecording.Pending current = pending;
    InventorySet inventory = work.previous();
    try {
      // a resumed run past its apply goes on with the post hooks alone
      if (!ReleaseHooks.postBegun(current.record(), post)) {
        if (!ReleaseHooks.started(current.record(), pre)) {
          apply.writeCrds(release, work.crds(), work.previous(), failure);
        }
        if (runsHooks) {
          ReleaseHooks.Run run = hooks.run(release, current.record(), pre, began, work.evaluator());
          current = current.withRecord(run.record());
          if (run instanceof ReleaseHooks.Running r) {
            return new HookRunning(r.message(), inventory);
          }
        }
        inventory =
            apply.apply(
                release, List.of(), work.objects(), work.previous(), work.baseline(), failure);
        if (runsHooks) {
          current = current.withRecord(hooks.beginPost(current.record(), post));
        }
      }
      if (runsHooks) {
        ReleaseHooks.Run run = hooks.run(release, current.record(), post, began, work.evaluator());
        current = current.withRecord(run.record());
        if (run instanceof ReleaseHooks.Running r) {
          return new HookRunning(r.message(), inventory);
        }
      }
      return new Deployed(recording.deployed(current, work.configDigest()), inventory);
    } catch (ReleaseApply.Failed f) {
      return new Failed(
          f.reason(),
          f.getMessage(),
          f.inventory(),
          recording.failed(current, f.getMessage(), work.configDigest()));
    } catch (ReleaseHooks.Failed f) {
      ReleaseRecording.Pending last = current.withRecord(f.record());
      return new Failed(
          failure,
          f.getMessage(),
          inventory,
          recording.failed(last, f.getMessage(), work.configDigest()));
    } catch (RuntimeException e) {
      // Whatever stopped the release, its record is not left pending.
      recording.failedQuietly(current, String.valueOf(e.getMessage()), work.configDigest());
      throw e;
    }
  }

  /** When the release began: its pending record's time, or {@code otherwise} if unreadable. */
  static Instant began(ReleaseRecording.Pending pending, Instant otherwise) {
    return HelmTime.parse(pending.record().release().info().lastDeployed(), otherwise);
  }

  /** How long the release has taken until now, by {@code clock}. */
  static Duration took(ReleaseRecording.Pending pending, Clock clock) {
    Instant now = clock.instant();
    return Duration.between(began(pending, now), now);
  }

  /** Flux's words for the action, a {@code %s} left for how it ended. */
  static String what(ReleaseRecording.Pending pending) {
    var chart = pending.record().release().chart();
    return "Helm "
        + pending.action().name()
        + " %s for release "
        + pending.where()
        + " with chart "
        + chart.name()
        + "@"
        + chart.version();
  }

  /** The install's or upgrade's {@code disableHooks}, as Flux reads it. */
  private static boolean hooksDisabled(HelmReleaseSpec spec, boolean upgrade) {
    Boolean disabled =
        upgrade ? spec.effectiveUpgrade().disableHooks() : spec.effectiveInstall().disableHooks();
    return Boolean.TRUE.equals(disabled);
  }
}
