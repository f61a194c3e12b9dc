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
   * When the deployed release was made, if nothing changed since it was: Released is True for the
   * current generation, the release the status last recorded ({@code status.history[0]}) is the
   * latest record and is deployed, and it was made of the chart version and values digest wanted
   * now. What was last attempted is not asked: it is written before the render, so a render or
   * record that failed would make a failed attempt look unchanged.
   */
  static Optional<Instant> since(
      HelmRelease release, ReleaseInputs.Inputs in, ReleaseHistory history) {
    HelmReleaseStatus st = release.getStatus();
    ReleaseSnapshot last = st == null ? null : st.latest();
    Optional<ReleaseRecord> latest = history.latest();
    if (last == null
        || !releasedAtGeneration(st, release.getMetadata().getGeneration())
        || !in.chart().madeOf(last.chartVersion())
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
}
