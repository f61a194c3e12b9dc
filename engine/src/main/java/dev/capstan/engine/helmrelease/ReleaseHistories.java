package dev.capstan.engine.helmrelease;

import dev.capstan.helm.release.ReleaseHistory;
import dev.capstan.helm.release.ReleaseRecordException;

/**
 * Where a release's records are read from: the engine's {@link ReleaseStore}, or a reader that
 * cannot write for a preview. {@link ReleaseRecording#history(ReleaseHistories,
 * dev.capstan.api.helm.HelmRelease)} chooses the namespace for both.
 */
@FunctionalInterface
interface ReleaseHistories {
  ReleaseHistory history(String namespace, String name) throws ReleaseRecordException;
}
