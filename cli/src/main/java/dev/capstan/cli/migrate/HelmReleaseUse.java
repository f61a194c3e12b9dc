package dev.capstan.cli.migrate;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The objects Flux's HelmReleases use, which stay with Flux until HelmReleases migrate: the
 * HelmChart helm-controller made for each ({@code status.helmChart}) and the sources and charts
 * they name ({@code spec.chart.spec.sourceRef}, {@code spec.chartRef}). Pure.
 */
record HelmReleaseUse(Map<String, String> generatedCharts, Map<String, String> sources) {

  static HelmReleaseUse of(List<Manifest> flux) {
    Map<String, String> charts = new HashMap<>();
    Map<String, String> sources = new HashMap<>();
    for (Manifest release : flux) {
      if (release.kind() != FluxKind.HELM_RELEASE) {
        continue;
      }
      String title = "HelmRelease " + release.namespace() + "/" + release.name();
      if (release.status().get("helmChart") instanceof String chart && chart.contains("/")) {
        String[] parts = chart.split("/", 2);
        charts.put(Planner.key(FluxKind.HELM_CHART, parts[0], parts[1]), title);
      }
      Map<?, ?> chartSpec = Manifest.map(Manifest.map(release.spec().get("chart")).get("spec"));
      for (Map<?, ?> ref :
          List.of(
              Manifest.map(chartSpec.get("sourceRef")),
              Manifest.map(release.spec().get("chartRef")))) {
        FluxKind.named(String.valueOf(ref.get("kind")))
            .ifPresent(
                kind ->
                    sources.put(
                        Planner.key(
                            kind,
                            ref.get("namespace") instanceof String ns ? ns : release.namespace(),
                            String.valueOf(ref.get("name"))),
                        title));
      }
    }
    return new HelmReleaseUse(Map.copyOf(charts), Map.copyOf(sources));
  }
}
