package dev.capstan.engine.kustomization;

import dev.capstan.applier.kustomize.ManifestBuilder;
import dev.capstan.engine.pipeline.Acting;
import dev.capstan.engine.pipeline.Backoff;
import dev.capstan.engine.pipeline.ClusterView;
import dev.capstan.engine.pipeline.PipelineObserver;
import dev.capstan.engine.pipeline.StoredTrees;
import dev.capstan.engine.remote.RemoteClusters;
import dev.capstan.engine.shard.WriteFence;
import dev.capstan.engine.status.StatusWrites;
import dev.capstan.health.cel.BuiltinLibrary;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.soabase.recordbuilder.core.RecordBuilder;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * What a {@link KustomizationPipeline} works with; everything is passed in so that tests and
 * benchmarks choose clocks, backoff and polling. Built with {@code PipelinePartsBuilder}: a part
 * left unset is null, and the optional ones (tracking, backoff, waitPoll, observer,
 * dependencyWatching, settings, fence) then take the defaults below.
 *
 * @param view where Capstan objects are read; the controller connects its caches with {@code
 *     withView}
 * @param trees the stored tree of an artifact digest (the engine's own artifact store)
 * @param accounts who applies, prunes and reads health for a Kustomization
 * @param waitPoll how often a health wait looks again when no event came
 * @param noCrossNamespaceRefs whether a sourceRef or dependsOn to another namespace is refused
 * @param observer told what each reconcile did (metrics)
 * @param dependencyWatching wakes a Kustomization when an object it depends on changes
 * @param remotes the clients of the remote clusters of spec.kubeConfig
 * @param settings what the engine's operator set for every Kustomization
 * @param fence asked before each apply, prune and deletion of a Kustomization's objects (status
 *     writes ask it in the status writer); by default every write goes through
 */
@RecordBuilder
public record PipelineParts(
    KubernetesClient client,
    ClusterView view,
    ManifestBuilder manifestBuilder,
    StoredTrees trees,
    ServiceAccountClients accounts,
    StatusWrites statuses,
    HealthTracking tracking,
    WaitTracker waits,
    BuiltinLibrary library,
    Clock clock,
    Backoff backoff,
    Duration waitPoll,
    boolean noCrossNamespaceRefs,
    PipelineObserver observer,
    DependencyWatching dependencyWatching,
    RemoteClusters<Acting> remotes,
    PipelineSettings settings,
    WriteFence fence)
    implements PipelinePartsBuilder.With {

  public PipelineParts {
    Objects.requireNonNull(client, "client");
    Objects.requireNonNull(manifestBuilder, "manifestBuilder");
    Objects.requireNonNull(trees, "trees");
    Objects.requireNonNull(accounts, "accounts");
    Objects.requireNonNull(statuses, "statuses");
    tracking = tracking == null ? HealthTracking.NONE : tracking;
    Objects.requireNonNull(waits, "waits");
    Objects.requireNonNull(library, "library");
    Objects.requireNonNull(clock, "clock");
    backoff = backoff == null ? Backoff.defaults() : backoff;
    waitPoll = waitPoll == null ? Duration.ofSeconds(2) : waitPoll;
    observer = observer == null ? PipelineObserver.NONE : observer;
    dependencyWatching = dependencyWatching == null ? DependencyWatching.NONE : dependencyWatching;
    Objects.requireNonNull(remotes, "remotes");
    settings = settings == null ? PipelineSettings.DEFAULTS : settings;
    fence = fence == null ? WriteFence.NONE : fence;
  }
}
