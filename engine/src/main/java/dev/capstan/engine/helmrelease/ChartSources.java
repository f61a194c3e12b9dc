package dev.capstan.engine.helmrelease;

import dev.capstan.api.helm.HelmRelease;
import dev.capstan.engine.pipeline.StoredTrees;
import io.fabric8.kubernetes.client.KubernetesClient;

/** Where a HelmRelease's chart comes from: its HelmChart (made from spec.chart) or chartRef. */
public interface ChartSources {

  /**
   * The chart's artifact in the engine's store.
   *
   * @throws ReleaseFailure waiting (SourceNotReady) while the source has no artifact, or failed
   *     (ArtifactFailed) when the source cannot be made or read
   */
  ChartArtifact find(HelmRelease release);

  /**
   * The charts of the engine's cluster: the HelmChart of spec.chart applied, its artifact (or that
   * of chartRef's object) found in {@code trees}; the sources read from {@code cache} where it
   * holds them.
   */
  static ChartSources inCluster(
      KubernetesClient client, StoredTrees trees, ChartSourceCache cache) {
    return new ClusterChartSources(client, trees, cache);
  }

  /** Deletes what {@link #find} made for {@code release} (the HelmChart of spec.chart). */
  void forget(HelmRelease release);
}
