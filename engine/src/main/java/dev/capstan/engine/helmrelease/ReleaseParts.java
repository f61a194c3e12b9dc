package dev.capstan.engine.helmrelease;

import dev.capstan.applier.common.Polling;
import dev.capstan.engine.kustomization.HealthTracking.RemoteCluster;
import dev.capstan.engine.pipeline.Backoff;
import dev.capstan.engine.pipeline.PipelineObserver;
import dev.capstan.engine.pipeline.StoredTrees;
import dev.capstan.health.cel.BuiltinLibrary;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.soabase.recordbuilder.core.RecordBuilder;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Function;

/**
 * What a {@link HelmReleasePipeline} works with; everything is passed in so that tests choose
 * fakes, clocks and polling. Built with {@code ReleasePartsBuilder}; the optional parts
 * (capabilities, remoteCapabilities, backoff, waitPoll, observer, dependencyRequeue, tracking) take
 * the defaults below when left unset.
 *
 * @param charts where a HelmRelease's chart comes from ({@link ChartSources#inCluster})
 * @param renderer the chart workers' render
 * @param capabilities the engine's cluster as charts see it ({@link Capabilities#of})
 * @param remoteCapabilities a remote cluster (spec.kubeConfig) as charts installed there see it
 * @param actors who acts for each HelmRelease: its service account's client and release records
 * @param statuses where statuses are written (the engine's status writer)
 * @param values composes a HelmRelease's values
 * @param waitPoll how often a release whose objects are not healthy yet is looked at again
 * @param noCrossNamespaceRefs whether a chart source or a dependency in another namespace is
 *     refused
 * @param dependencyRequeue when a HelmRelease whose dependencies are not ready looks again (Flux's
 *     {@code --requeue-dependency}, 30s by default)
 * @param tracking keeps Healthy live between reconciles (the health monitor); none when unset
 * @param hookSleeper the pause between two looks at a rollback's or an uninstall's running hook;
 *     {@link Thread#sleep} when unset
 */
@RecordBuilder
public record ReleaseParts(
    ChartSources charts,
    ChartRendering renderer,
    Capabilities capabilities,
    Function<RemoteCluster, Capabilities> remoteCapabilities,
    ReleaseActors actors,
    ReleaseStatusWrites statuses,
    ValuesComposition values,
    BuiltinLibrary library,
    Clock clock,
    Backoff backoff,
    Duration waitPoll,
    PipelineObserver observer,
    boolean noCrossNamespaceRefs,
    Duration dependencyRequeue,
    ReleaseHealthTracking tracking,
    Polling.Sleeper hookSleeper)
    implements ReleasePartsBuilder.With {

  public ReleaseParts {
    Objects.requireNonNull(charts, "charts");
    Objects.requireNonNull(renderer, "renderer");
    capabilities = capabilities == null ? Capabilities.HELM_DEFAULTS : capabilities;
    remoteCapabilities =
        remoteCapabilities == null ? remote -> Capabilities.HELM_DEFAULTS : remoteCapabilities;
    Objects.requireNonNull(actors, "actors");
    Objects.requireNonNull(statuses, "statuses");
    Objects.requireNonNull(values, "values");
    Objects.requireNonNull(library, "library");
    Objects.requireNonNull(clock, "clock");
    backoff = backoff == null ? Backoff.defaults() : backoff;
    waitPoll = waitPoll == null ? Duration.ofSeconds(2) : waitPoll;
    observer = observer == null ? PipelineObserver.NONE : observer;
    dependencyRequeue = dependencyRequeue == null ? DEPENDENCY_REQUEUE : dependencyRequeue;
    tracking = tracking == null ? ReleaseHealthTracking.NONE : tracking;
    hookSleeper = hookSleeper == null ? d -> Thread.sleep(d.toMillis()) : hookSleeper;
  }

  /** Flux's default {@code --requeue-dependency}. */
  public static final Duration DEPENDENCY_REQUEUE = Duration.ofSeconds(30);

  /**
   * The parts that read {@code client}'s cluster: the charts (their sources from {@code sources}
   * where it holds them, their artifacts in {@code trees}), its Capabilities (and a remote
   * cluster's, asked of the remote's client) and the values composed from its ConfigMaps and
   * Secrets; the caller adds the renderer, who acts (and keeps the release records), the status
   * writer and the health library.
   */
  public static ReleasePartsBuilder inCluster(
      KubernetesClient client, StoredTrees trees, ChartSourceCache sources, Clock clock) {
    return ReleasePartsBuilder.builder()
        .charts(ChartSources.inCluster(client, trees, sources))
        .capabilities(Capabilities.of(client, clock))
        .remoteCapabilities(remote -> Capabilities.of(remote.client(), clock))
        .values(ValuesComposition.of(client))
        .clock(clock);
  }
}
