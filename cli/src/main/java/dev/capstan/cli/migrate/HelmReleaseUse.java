package dev.capstan.cli.migrate;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The HelmCharts Flux's helm-controller made for HelmReleases ({@code status.helmChart}), each with
 * the HelmRelease it was made for. They get no twin: Capstan's HelmRelease makes its own HelmChart
 * from {@code spec.chart}, and the Flux one is deleted with its HelmRelease. Pure.
 */
record HelmReleaseUse(Map<String, Manifest> generatedCharts) {

  static HelmReleaseUse of(List<Manifest> flux) {
    Map<String, Manifest> charts = new HashMap<>();
    for (Manifest release : flux) {
      if (release.kind() == FluxKind.HELM_RELEASE) {
        chartOf(release).ifPresent(chart -> charts.put(chart, release));
      }
    }
    return new HelmReleaseUse(Map.copyOf(charts));
  }

  /** The key ({@link Planner#key}) of the HelmChart helm-controller made for {@code release}. */
  static Optional<String> chartOf(Manifest release) {
    if (release.status().get("helmChart") instanceof String chart && chart.contains("/")) {
      String[] parts = chart.split("/", 2);
      if (!parts[0].isEmpty() && !parts[1].isEmpty()) {
        return Optional.of(Planner.key(FluxKind.HELM_CHART, parts[0], parts[1]));
      }
    }
    return Optional.empty();
  }
}
