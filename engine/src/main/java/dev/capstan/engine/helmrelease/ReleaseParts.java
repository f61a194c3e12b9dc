package dev.capstan.engine.helmrelease;

import dev.capstan.engine.pipeline.Acting;
import dev.capstan.engine.pipeline.Backoff;
import dev.capstan.engine.pipeline.PipelineObserver;
import dev.capstan.engine.pipeline.StoredTrees;
import dev.capstan.health.cel.BuiltinLibrary;
import dev.capstan.helm.release.ReleaseStorage;
import dev.capstan.kube.SecretReader;
import dev.capstan.kube.SecretWriter;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.soabase.recordbuilder.core.RecordBuilder;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * What a {@link HelmReleasePipeline} works with; everything is passed in so that tests choose
 * fakes, clocks and polling. Built with {@code ReleasePartsBuilder}; the optional parts
 * (capabilities, backoff, waitPoll, observer) take the defaults below when left unset.
 *
 * @param charts where a HelmRelease's chart comes from ({@link ChartSources#inCluster})
 * @param renderer the chart workers' render
 * @param capabilities the cluster as charts see it ({@link Capabilities#of})
 * @param acting applies, prunes, deletes and reads health (the engine's own client)
 * @param store Helm's release records
 * @param statuses where statuses are written (the engine's status writer)
 * @param values composes a HelmRelease's values
 * @param waitPoll how often a release whose objects are not healthy yet is looked at again
 */
@RecordBuilder
public record ReleaseParts(
    ChartSources charts,
    ChartRendering renderer,
    Capabilities capabilities,
    Acting acting,
    ReleaseStore store,
    ReleaseStatusWrites statuses,
    ValuesComposition values,
    BuiltinLibrary library,
    Clock clock,
    Backoff backoff,
    Duration waitPoll,
    PipelineObserver observer)
    implements ReleasePartsBuilder.With {

  public ReleaseParts {
    Objects.requireNonNull(charts, "charts");
    Objects.requireNonNull(renderer, "renderer");
    capabilities = capabilities == null ? Capabilities.HELM_DEFAULTS : capabilities;
    Objects.requireNonNull(acting, "acting");
    Objects.requireNonNull(store, "store");
    Objects.requireNonNull(statuses, "statuses");
    Objects.requireNonNull(values, "values");
    Objects.requireNonNull(library, "library");
    Objects.requireNonNull(clock, "clock");
    backoff = backoff == null ? Backoff.defaults() : backoff;
    waitPoll = waitPoll == null ? Duration.ofSeconds(2) : waitPoll;
    observer = observer == null ? PipelineObserver.NONE : observer;
  }

  /**
   * The parts that read and write {@code client}'s cluster: the charts (their artifacts in {@code
   * trees}), its Capabilities, Helm's release records in its Secrets and the values composed from
   * its ConfigMaps and Secrets; the caller adds the renderer, who acts, the status writer and the
   * health library.
   */
  public static ReleasePartsBuilder inCluster(
      KubernetesClient client, StoredTrees trees, Clock clock) {
    return ReleasePartsBuilder.builder()
        .charts(ChartSources.inCluster(client, trees))
        .capabilities(Capabilities.of(client, clock))
        .store(
            ReleaseStore.of(
                new ReleaseStorage(new SecretReader(client), new SecretWriter(client), clock)))
        .values(ValuesComposition.of(client))
        .clock(clock);
  }
}
