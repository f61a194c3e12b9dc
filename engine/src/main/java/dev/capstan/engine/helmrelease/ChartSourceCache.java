package dev.capstan.engine.helmrelease;

import dev.capstan.api.source.HelmChart;
import dev.capstan.api.source.OCIRepository;
import dev.capstan.engine.core.NamespacedName;
import java.util.Optional;

/**
 * The chart sources a HelmRelease's reconcile reads from the informers whose changes wake it,
 * instead of asking the API server at every look: a release woken by its source's new artifact
 * finds it there. Empty for a source it does not hold (not there, or no informer yet), which is
 * then read from the API server.
 */
public interface ChartSourceCache {

  /** Holds nothing: every source is read from the API server. */
  ChartSourceCache NONE =
      new ChartSourceCache() {
        @Override
        public Optional<HelmChart> helmChart(NamespacedName key) {
          return Optional.empty();
        }

        @Override
        public Optional<OCIRepository> ociRepository(NamespacedName key) {
          return Optional.empty();
        }
      };

  Optional<HelmChart> helmChart(NamespacedName key);

  Optional<OCIRepository> ociRepository(NamespacedName key);
}
