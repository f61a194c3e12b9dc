package dev.capstan.engine.helmrelease;

import dev.capstan.api.helm.HelmRelease;
import dev.capstan.api.helm.HelmReleaseSpec;
import dev.capstan.api.helm.HelmReleaseStatus.ReleaseAction;
import dev.capstan.decryption.Plaintexts;
import dev.capstan.engine.conditions.ReleaseObservation.Attempted;
import dev.capstan.engine.conditions.ReleaseReason;
import dev.capstan.engine.core.NamespacedName;
import dev.capstan.engine.kustomization.ReferenceRules;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/** The first stage: a HelmRelease's chart artifact and its composed values. */
final class ReleaseInputs {
  private final ChartSources charts;
  private final ValuesComposition composition;
  private final ReferenceRules rules;

  ReleaseInputs(ChartSources charts, ValuesComposition composition, boolean noCrossNamespaceRefs) {
    this.charts = charts;
    this.composition = composition;
    this.rules = new ReferenceRules(noCrossNamespaceRefs);
  }

  /**
   * What a release is made from: its chart and values, with the values' digests and what in them
   * came from Secrets.
   */
  record Inputs(
      ChartArtifact chart,
      Map<String, Object> values,
      String configDigest,
      Plaintexts fromSecrets) {

    /**
     * These inputs as the status records an attempt of {@code action} (the chart's version and
     * digest by {@link ChartArtifact#attemptedRevision} and {@link ChartArtifact#attemptedDigest}).
     * The values are recorded by their digest alone: Flux's v2 API deprecated {@code
     * lastAttemptedValuesChecksum} (an unsalted SHA-1) for {@code lastAttemptedConfigDigest} and
     * clears it at every attempt, as this does.
     */
    Attempted attempted(ReleaseAction action, Duration took) {
      return new Attempted(
          chart.attemptedRevision(), chart.attemptedDigest(), configDigest, null, action, took);
    }
  }

  Inputs read(HelmRelease release) {
    refuseCrossNamespaceSource(release);
    ChartArtifact chart = charts.find(release);
    ValuesComposition.Composed composed;
    try {
      composed =
          composition.composed(
              release.getMetadata().getNamespace(),
              release.getSpec().valuesReferences(),
              release.getSpec().values());
    } catch (ValuesFailure e) {
      throw ReleaseFailure.failed(ReleaseReason.INIT_FAILED, e.getMessage());
    }
    Map<String, Object> values = composed.values();
    return new Inputs(chart, values, ValuesDigest.of(values), composed.fromSecrets());
  }

  /**
   * With cross-namespace references refused, a chartRef or chart template whose source is in
   * another namespace stops the reconcile before anything is read or made for it.
   */
  private void refuseCrossNamespaceSource(HelmRelease release) {
    String namespace = release.getMetadata().getNamespace();
    HelmReleaseSpec spec = release.getSpec();
    Optional<String> refusal;
    if (spec.chart() != null) {
      var ref = spec.chart().spec().sourceRef();
      refusal =
          rules.sourceRefRefusal(
              namespace,
              String.valueOf(ref.kind()),
              new NamespacedName(HelmChartTemplates.sourceNamespace(release), ref.name()));
    } else {
      var ref = spec.chartRef();
      String source = HelmChartTemplates.chartRefNamespace(release);
      refusal =
          rules.sourceRefRefusal(
              namespace, String.valueOf(ref.kind()), new NamespacedName(source, ref.name()));
    }
    refusal.ifPresent(
        message -> {
          throw ReleaseFailure.failed(ReleaseReason.ACCESS_DENIED, message);
        });
  }
}
