package dev.capstan.engine.helmrelease;

import dev.capstan.api.helm.HelmRelease;
import dev.capstan.api.helm.HelmReleaseStatus;

/** Where the HelmRelease pipeline writes statuses: the engine's status writer. */
@FunctionalInterface
public interface ReleaseStatusWrites {

  /** Writes {@code next} as the status of {@code current} unless it is that already. */
  void write(HelmRelease current, HelmReleaseStatus next);
}
