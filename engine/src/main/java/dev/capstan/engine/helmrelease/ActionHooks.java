package dev.capstan.engine.helmrelease;

import dev.capstan.api.common.GoDuration;
import dev.capstan.api.helm.HelmReleaseSpec;
import dev.capstan.api.helm.Rollback;
import dev.capstan.api.helm.Uninstall;
import java.time.Duration;

/**
 * Whether a rollback and an uninstall run the chart's hooks ({@code disableHooks}) and how long
 * each of their operations may take ({@code timeout}, else {@code spec.timeout}), as Flux reads
 * {@code spec.rollback} and {@code spec.uninstall}.
 */
final class ActionHooks {
  private ActionHooks() {}

  static boolean rollbackRunsHooks(HelmReleaseSpec spec) {
    Rollback rollback = spec.rollback();
    return rollback == null || !Boolean.TRUE.equals(rollback.disableHooks());
  }

  static Duration rollbackTimeout(HelmReleaseSpec spec) {
    Rollback rollback = spec.rollback();
    return timeout(rollback == null ? null : rollback.timeout(), spec);
  }

  static boolean uninstallRunsHooks(HelmReleaseSpec spec) {
    return !Boolean.TRUE.equals(spec.effectiveUninstall().disableHooks());
  }

  static Duration uninstallTimeout(HelmReleaseSpec spec) {
    Uninstall uninstall = spec.effectiveUninstall();
    return timeout(uninstall.timeout(), spec);
  }

  private static Duration timeout(String action, HelmReleaseSpec spec) {
    return action == null || action.isEmpty() ? spec.effectiveTimeout() : GoDuration.parse(action);
  }
}
