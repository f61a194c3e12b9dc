package dev.capstan.engine.helmrelease;

import dev.capstan.kustomize.chart.ChartRender;
import dev.capstan.kustomize.chart.ChartRenderRequest;

/** The chart workers' render, as the HelmRelease pipeline sees it. */
@FunctionalInterface
public interface ChartRendering {

  /**
   * Renders one chart.
   *
   * @throws dev.capstan.kustomize.chart.ChartRenderException naming the stage that failed
   */
  ChartRender render(ChartRenderRequest request);
}
