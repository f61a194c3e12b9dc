package dev.capstan.engine.controller;

import dev.capstan.api.helm.HelmRelease;
import dev.capstan.api.source.HelmChart;
import dev.capstan.api.source.OCIRepository;
import dev.capstan.engine.core.NamespacedName;
import dev.capstan.engine.helmrelease.ChartSourceCache;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import java.util.Optional;

/**
 * The HelmRelease controller's informers of chart sources, as the pipeline reads them: the ones
 * whose artifact changes wake a HelmRelease, so that it reads the artifact it was woken for.
 */
public final class ReleaseSourceView implements ChartSourceCache {
  private volatile InformerEventSource<HelmChart, HelmRelease> helmCharts;
  private volatile InformerEventSource<OCIRepository, HelmRelease> ociRepositories;

  void connect(
      InformerEventSource<HelmChart, HelmRelease> helmChartSource,
      InformerEventSource<OCIRepository, HelmRelease> ociRepositorySource) {
    this.helmCharts = helmChartSource;
    this.ociRepositories = ociRepositorySource;
  }

  /** Empty also before the controller started, when there is no cache yet. */
  @Override
  public Optional<HelmChart> helmChart(NamespacedName key) {
    return CacheView.cached(helmCharts, key);
  }

  /** Empty also before the controller started, when there is no cache yet. */
  @Override
  public Optional<OCIRepository> ociRepository(NamespacedName key) {
    return CacheView.cached(ociRepositories, key);
  }
}
