package dev.capstan.engine.helmrelease;

import dev.capstan.api.helm.HelmRelease;
import dev.capstan.api.helm.HelmReleaseStatus.ReleaseAction;
import dev.capstan.engine.conditions.ReleaseObservation.Attempted;
import dev.capstan.engine.conditions.ReleaseReason;
import java.time.Duration;
import java.util.Map;

/** The first stage: a HelmRelease's chart artifact and its composed values. */
final class ReleaseInputs {
  private final ChartSources charts;
  private final ValuesComposition composition;

  ReleaseInputs(ChartSources charts, ValuesComposition composition) {
    this.charts = charts;
    this.composition = composition;
  }

  /** What a release is made from: its chart and values, with the values' digests. */
  record Inputs(
      ChartArtifact chart, Map<String, Object> values, String configDigest, String checksum) {

    /** These inputs as the status records an attempt of {@code action}. */
    Attempted attempted(ReleaseAction action, Duration took) {
      return new Attempted(chart.revision(), chart.digest(), configDigest, checksum, action, took);
    }
  }

  Inputs read(HelmRelease release) {
    ChartArtifact chart = charts.find(release);
    Map<String, Object> values;
    try {
      values =
          composition.compose(
              release.getMetadata().getNamespace(),
              release.getSpec().valuesReferences(),
              release.getSpec().values());
    } catch (ValuesFailure e) {
      throw ReleaseFailure.failed(ReleaseReason.INIT_FAILED, e.getMessage());
    }
    return new Inputs(chart, values, ValuesDigest.of(values), ValuesDigest.checksum(values));
  }
}
