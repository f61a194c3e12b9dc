package dev.capstan.engine.helmrelease;

import dev.capstan.api.helm.HelmRelease;
import dev.capstan.api.helm.HelmReleaseStatus;
import dev.capstan.api.helm.ReleaseSnapshot;
import dev.capstan.engine.conditions.HelmReleaseStatuses;
import dev.capstan.engine.conditions.ReleaseObservation;
import dev.capstan.helm.release.ReleaseHistory;
import dev.capstan.helm.release.ReleaseRecord;
import dev.capstan.helm.release.ReleaseStatus;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Objects;
import java.util.Optional;

/**
 * Whether a HelmRelease is in sync with its deployed release, so that a reconcile renders and
 * writes nothing and only looks at the health (and for drift).
 */
final class ReleaseUnchanged {
  private ReleaseUnchanged() {}

  /**
   * When the deployed release was made, if nothing it is made of changed since: Released is True,
   * the release the status last recorded ({@code status.history[0]}) is the latest record, is
   * deployed, has the release's name and target namespace, and was made of the chart (name and
   * version), values digest and render digests wanted now. As with Flux, a change of the spec that
   * changes none of these (the interval, a timeout, suspend and resume, drift detection, the health
   * checks) releases nothing: the look that follows takes the new settings (drift detection,
   * pending tests, the checks). What was last attempted is not asked: it is written before the
   * render, so a render or record that failed would make a failed attempt look unchanged.
   */
  static Optional<Instant> since(
      HelmRelease release, ReleaseInputs.Inputs in, ReleaseHistory history) {
    HelmReleaseStatus st = release.getStatus();
    ReleaseSnapshot last = st == null ? null : st.latest();
    Optional<ReleaseRecord> latest = history.latest();
    if (last == null
        || !released(st)
        || !sameTarget(last, release)
        || !in.chart().madeOf(last.chartVersion())
        || !in.chart().named(last.chartName())
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

  private static boolean released(HelmReleaseStatus status) {
    return HelmReleaseStatuses.condition(status, HelmReleaseStatuses.RELEASED)
        .filter(c -> "True".equals(c.getStatus()))
        .isPresent();
  }

  /**
   * Whether the release recorded is the one the spec names now: a new release name or target
   * namespace is a release elsewhere, never the one deployed.
   */
  private static boolean sameTarget(ReleaseSnapshot last, HelmRelease release) {
    return Objects.equals(last.name(), release.releaseName())
        && Objects.equals(last.namespace(), release.releaseNamespace());
  }
}
