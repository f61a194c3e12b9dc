package dev.capstan.engine.helmrelease;

import dev.capstan.api.helm.HelmRelease;
import dev.capstan.applier.common.Polling;
import dev.capstan.health.HealthEvaluator;
import dev.capstan.helm.release.ReleaseRecord;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * The hooks of one event of a rollback or an uninstall ({@code pre-rollback}, {@code post-delete},
 * ...) run to their end by {@link ReleaseHooks}, looked at every {@link #POLL} until each
 * succeeded, one failed, or one was not done within the action's timeout.
 *
 * <p>Why this one waits in the call, when an install's hooks are a waiting outcome: a rollback and
 * an uninstall keep no pending record that a later reconcile could go on from (an uninstall runs
 * from a finalizer, a rollback within a remediation), so the wait holds the thread, bounded by each
 * hook's timeout and by {@link #MAX_WAIT} for the whole event.
 */
final class HookEventRun {
  /** How often a running hook is looked at. */
  static final Duration POLL = Duration.ofSeconds(2);

  /**
   * The longest one event's hooks hold the reconcile thread, whatever the timeouts the tenant
   * chose: the threads are shared by every HelmRelease and Kustomization of the engine, and a
   * tenant's hour-long {@code rollback.timeout} must not take one from all the others for that
   * long. Past it the action fails as a hook's own timeout fails it.
   */
  static final Duration MAX_WAIT = Duration.ofMinutes(5);

  private final ReleaseHooks hooks;
  private final HealthEvaluator evaluator;
  private final Clock clock;
  private final Polling.Sleeper sleeper;

  HookEventRun(
      ReleaseHooks hooks, HealthEvaluator evaluator, Clock clock, Polling.Sleeper sleeper) {
    this.hooks = hooks;
    this.evaluator = evaluator;
    this.clock = clock;
    this.sleeper = sleeper;
  }

  /**
   * The hooks run as {@code actor} acts, looked at with the hook checks of the pipeline's shared
   * {@code evaluators}: one is made at every reconcile, which runs no hook of this kind unless it
   * rolls back or uninstalls, so it must not compile them again.
   */
  static HookEventRun of(
      ReleaseActors.Actor actor, ReleaseParts parts, ReleaseEvaluators evaluators) {
    return new HookEventRun(
        new ReleaseHooks(actor.acting(), actor.store(), parts.clock()),
        new ReleaseHealth(actor.acting(), evaluators, parts.clock()).hookEvaluator(),
        parts.clock(),
        parts.hookSleeper());
  }

  /**
   * {@code event}'s hooks of {@code record} run afresh (a run an earlier action or event left in
   * the record is not theirs), each waited on at most {@code timeout} and all of them at most
   * {@link #MAX_WAIT}; returns the record as the hooks left it, written.
   *
   * @throws ReleaseHooks.Failed naming the hook that failed or was not done in time
   * @throws Interrupted when the thread was interrupted while waiting, its flag set again
   */
  ReleaseRecord run(HelmRelease release, ReleaseRecord record, HookEvent event, Duration timeout) {
    if (ReleaseHooks.order(ReleaseHooks.hooksOf(record), event).isEmpty()) {
      return record;
    }
    ReleaseRecord current = hooks.unrun(record, event);
    Instant began = clock.instant();
    HookScope scope =
        new HookScope(name -> true, timeout, new HookScope.Bound(began.plus(MAX_WAIT), MAX_WAIT));
    while (true) {
      ReleaseHooks.Run run = hooks.run(release, current, event, began, evaluator, scope);
      current = run.record();
      if (run instanceof ReleaseHooks.Done) {
        return current;
      }
      try {
        sleeper.sleep(POLL);
      } catch (InterruptedException e) {
        // the engine is stopping: nothing is written as failed, the next reconcile runs it again
        Thread.currentThread().interrupt();
        throw new Interrupted(event);
      }
    }
  }

  /**
   * The wait on {@code event}'s hooks was interrupted: not a failure of the action, which writes
   * nothing about it, so a later reconcile runs it again.
   */
  static final class Interrupted extends RuntimeException {
    Interrupted(HookEvent event) {
      super(event + " hooks interrupted", null, false, false);
    }
  }
}
