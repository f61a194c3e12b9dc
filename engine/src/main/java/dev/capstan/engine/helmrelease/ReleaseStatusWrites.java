package dev.capstan.engine.helmrelease;

import dev.capstan.api.helm.HelmRelease;
import dev.capstan.api.helm.HelmReleaseStatus;

/** Where the HelmRelease pipeline writes statuses: the engine's status writer. */
@FunctionalInterface
public interface ReleaseStatusWrites {

  /** Writes {@code next} as the status of {@code current} unless it is that already. */
  void write(HelmRelease current, HelmReleaseStatus next);

  /**
   * The HelmRelease to reconcile: {@code cached}, or one read again when {@code cached} is older
   * than the last status written to it; null when it is gone.
   */
  default HelmRelease current(HelmRelease cached) {
    return cached;
  }
}
