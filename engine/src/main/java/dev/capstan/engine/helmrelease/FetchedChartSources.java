package dev.capstan.engine.helmrelease;

import dev.capstan.api.helm.ChartReference;
import dev.capstan.api.helm.HelmRelease;
import dev.capstan.api.source.HelmChart;
import dev.capstan.engine.conditions.ReleaseReason;
import dev.capstan.engine.source.HelmChartFetch;
import dev.capstan.source.core.SourceException;
import dev.capstan.source.core.store.StoredArtifact;
import dev.capstan.source.helm.HelmChartSource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

/**
 * The charts of HelmReleases fetched from their sources rather than found in the engine's store:
 * for a caller outside the engine. The HelmChart is the one the HelmRelease would have (spec.chart)
 * or the one chartRef names, neither applied; its chart is fetched by {@link HelmChartFetch}.
 */
final class FetchedChartSources implements ChartSources {
  private final KubernetesClient client;
  private final HelmChartFetch fetch;

  FetchedChartSources(KubernetesClient client, HelmChartFetch fetch) {
    this.client = client;
    this.fetch = fetch;
  }

  @Override
  public ChartArtifact find(HelmRelease release) {
    HelmChart chart = chartOf(release);
    String what =
        "HelmChart '"
            + chart.getMetadata().getNamespace()
            + "/"
            + chart.getMetadata().getName()
            + "'";
    StoredArtifact artifact;
    try {
      artifact = fetch.fetch(chart);
    } catch (SourceException e) {
      throw ReleaseFailure.failed(
          ReleaseReason.ARTIFACT_FAILED,
          "the chart of " + what + " could not be fetched: " + e.getMessage());
    }
    return new ChartArtifact(
        false,
        what,
        artifact.revision(),
        artifact.digest(),
        artifact.path(),
        ClusterChartSources.chartIn(artifact.path(), what),
        artifact.metadata().get(HelmChartSource.CHART_NAME));
  }

  private HelmChart chartOf(HelmRelease release) {
    if (release.getSpec().chart() != null) {
      // the version's +N metadata is the generation the engine's apply would leave it at
      HelmChart desired = HelmChartTemplates.desired(release);
      HelmChart live =
          read(desired.getMetadata().getNamespace(), desired.getMetadata().getName(), true);
      desired.getMetadata().setGeneration(ClusterChartSources.generationAfterApply(live, desired));
      return desired;
    }
    ChartReference ref = release.getSpec().chartRef();
    if (ref.kind() == ChartReference.Kind.ExternalArtifact) {
      throw ReleaseFailure.failed(
          ReleaseReason.INIT_FAILED, ClusterChartSources.EXTERNAL_ARTIFACT_REFUSED);
    }
    if (ref.kind() != ChartReference.Kind.HelmChart) {
      throw ReleaseFailure.failed(
          ReleaseReason.ARTIFACT_FAILED,
          "a chartRef of kind " + ref.kind() + " is not fetched outside the engine");
    }
    return read(HelmChartTemplates.chartRefNamespace(release), ref.name(), false);
  }

  /** The HelmChart {@code namespace/name}; null when it is not there and {@code mayBeAbsent}. */
  private HelmChart read(String namespace, String name, boolean mayBeAbsent) {
    String what = "HelmChart '" + namespace + "/" + name + "'";
    HelmChart chart;
    try {
      chart = client.resources(HelmChart.class).inNamespace(namespace).withName(name).get();
    } catch (KubernetesClientException e) {
      throw ReleaseFailure.failed(
          ReleaseReason.ARTIFACT_FAILED, what + " could not be read: HTTP " + e.getCode());
    }
    if (chart == null && !mayBeAbsent) {
      throw ReleaseFailure.failed(ReleaseReason.ARTIFACT_FAILED, what + " not found");
    }
    return chart;
  }

  @Override
  public void forget(HelmRelease release) {
    // nothing was applied
  }
}
