package dev.capstan.engine.helmrelease;

import dev.capstan.api.helm.HelmRelease;
import dev.capstan.api.helm.HelmReleaseSpec;
import dev.capstan.applier.inventory.InventorySet;
import dev.capstan.applier.wait.WaitResult;
import dev.capstan.engine.conditions.ReleaseObservation.HealthState;
import dev.capstan.engine.kustomization.HealthEvaluators;
import dev.capstan.engine.pipeline.Acting;
import dev.capstan.health.AggregateHealth;
import dev.capstan.health.HealthEvaluator;
import dev.capstan.health.cel.HealthCheckExpr;
import dev.capstan.health.status.Status;
import java.time.Clock;
import java.time.Instant;
import java.util.List;

/**
 * One look at the health of a release's objects (kstatus, the built-in library and the
 * HelmRelease's healthCheckExprs), read live, judged against the deadline of its release: the time
 * it was deployed plus {@code spec.timeout}. Holds no thread: a release whose objects are not ready
 * yet is looked at again by the next reconcile, which renders nothing.
 */
final class ReleaseHealth {
  private final Acting acting;
  private final ReleaseEvaluators evaluators;
  private final Clock clock;

  ReleaseHealth(Acting acting, ReleaseEvaluators evaluators, Clock clock) {
    this.acting = acting;
    this.evaluators = evaluators;
    this.clock = clock;
  }

  /** How the health of what a release holds stands. */
  record Look(AggregateHealth health, HealthState state) {}

  /**
   * Looks once at {@code inventory}, deployed at {@code deployedAt} by an upgrade ({@code upgrade})
   * or an install.
   */
  Look look(HelmRelease release, InventorySet inventory, Instant deployedAt, boolean upgrade) {
    AggregateHealth health = acting.waiter().health(inventory.refs(), evaluator(release.getSpec()));
    return judged(release, health, deployedAt, upgrade);
  }

  /** {@code health}, seen otherwise (the health monitor's watch), judged as a look is. */
  Look judged(HelmRelease release, AggregateHealth health, Instant deployedAt, boolean upgrade) {
    return new Look(health, state(release.getSpec(), health, clock.instant(), deployedAt, upgrade));
  }

  /**
   * Where {@code health} at {@code now} leaves the wait for a release deployed at {@code
   * deployedAt} by an upgrade ({@code upgrade}) or an install: the same judgement for a reconcile's
   * look and for the health monitor's between reconciles.
   */
  static HealthState state(
      HelmReleaseSpec spec,
      AggregateHealth health,
      Instant now,
      Instant deployedAt,
      boolean upgrade) {
    if (!waits(spec, upgrade)) {
      return HealthState.CURRENT;
    }
    WaitResult result = WaitResult.of(health, now, deployedAt.plus(spec.effectiveTimeout()));
    return switch (result.verdict()) {
      case CURRENT -> HealthState.CURRENT;
      case FAILED -> HealthState.FAILED;
      case IN_PROGRESS -> HealthState.IN_PROGRESS;
      case TIMED_OUT -> HealthState.TIMED_OUT;
    };
  }

  /**
   * Where {@code health} leaves a release whose wait has ended (or was disabled): judged as it is,
   * never as a wait, so nothing it says reopens one or fails the release.
   */
  static HealthState afterWait(AggregateHealth health) {
    boolean missing =
        health.notCurrent().stream().anyMatch(h -> h.status().status() == Status.NotFound);
    if (health.status() == Status.Failed || missing) {
      return HealthState.FAILED;
    }
    return health.status() == Status.Current ? HealthState.CURRENT : HealthState.UNSETTLED;
  }

  /**
   * Whether the action that made the release waits for its objects (Helm's {@code --wait}, Flux's
   * default): the upgrade's {@code disableWait} for an upgrade, the install's for an install.
   */
  private static boolean waits(HelmReleaseSpec spec, boolean upgrade) {
    Boolean disabled =
        upgrade ? spec.effectiveUpgrade().disableWait() : spec.effectiveInstall().disableWait();
    return !Boolean.TRUE.equals(disabled);
  }

  /**
   * How a hook is waited on, as Helm waits for one: a Job until Complete (the health rules call a
   * started Job Current), a Pod until Succeeded; either failed when it failed.
   */
  static final List<HealthCheckExpr> HOOK_CHECKS =
      List.of(
          new HealthCheckExpr(
              "batch/v1",
              "Job",
              "has(status.conditions) && status.conditions.exists(c, c.type == 'Complete'"
                  + " && c.status == 'True')",
              null,
              "has(status.conditions) && status.conditions.exists(c, c.type == 'Failed'"
                  + " && c.status == 'True')"),
          new HealthCheckExpr(
              "v1",
              "Pod",
              "has(status.phase) && status.phase == 'Succeeded'",
              null,
              "has(status.phase) && status.phase == 'Failed'"));

  /**
   * The evaluator of a release's hooks: {@link #HOOK_CHECKS} alone. Helm judges hooks by itself;
   * the HelmRelease's healthCheckExprs are for its objects, and one naming a Job or a Pod would
   * clash with the hook checks.
   */
  HealthEvaluator hookEvaluator() {
    return evaluators.hooks();
  }

  /** The HelmRelease's health evaluator: the built-in checks and its healthCheckExprs. */
  HealthEvaluator evaluator(HelmReleaseSpec spec) {
    return evaluator(HealthEvaluators.checksOf(spec.healthCheckExprs()));
  }

  private HealthEvaluator evaluator(List<HealthCheckExpr> checks) {
    return evaluators.of(checks);
  }
}
