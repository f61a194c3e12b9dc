package dev.capstan.engine.controller;

import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.source.Bucket;
import dev.capstan.api.source.ExternalArtifact;
import dev.capstan.api.source.GitRepository;
import dev.capstan.api.source.OCIRepository;
import dev.capstan.engine.core.NamespacedName;
import dev.capstan.engine.dependencies.DependencyReferences;
import dev.capstan.engine.kustomization.Deletion;
import dev.capstan.engine.kustomization.KustomizationPipeline;
import dev.capstan.engine.pipeline.Outcome;
import dev.capstan.engine.shard.ShardGate;
import dev.capstan.engine.shard.WriteFence;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.IndexerResourceCache;
import io.javaoperatorsdk.operator.processing.event.source.filter.OnUpdateFilter;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands each Kustomization to the pipeline and turns its outcome into a requeue. Besides its own
 * changes, a Kustomization is reconciled when its source's revision changes, when a dependency's
 * readiness changes, when the health monitor sees an object it waits for change, and when a watched
 * ConfigMap or Secret it reads changes (which also ends its health wait in progress).
 */
@ControllerConfiguration(name = "kustomization")
public final class KustomizationReconciler
    implements Reconciler<Kustomization>, Cleaner<Kustomization> {
  private static final Logger LOG = LoggerFactory.getLogger(KustomizationReconciler.class);
  private final KustomizationPipeline pipeline;
  private final CacheView view;
  private final ShardGate shards;
  private final WakeUpEventSource<Kustomization> wakeUps =
      new WakeUpEventSource<>(Kustomization.class);
  private volatile IndexerResourceCache<Kustomization> primary;

  KustomizationReconciler(KustomizationPipeline pipeline, CacheView view, ShardGate shards) {
    this.pipeline = pipeline;
    this.view = view;
    this.shards = shards;
  }

  /** The Kustomizations in the cache (none before the controller started). */
  Stream<Kustomization> cached() {
    IndexerResourceCache<Kustomization> cache = primary;
    return cache == null ? Stream.empty() : cache.list();
  }

  /** Reconcile {@code key} soon (e.g. an object it waits for changed). */
  void wake(NamespacedName key) {
    wakeUps.wake(key);
  }

  /**
   * A watched ConfigMap or Secret changed: the Kustomizations that read it are told (new input for
   * a wait in progress) and reconciled.
   */
  void configChanged(String kind, NamespacedName object) {
    IndexerResourceCache<Kustomization> cache = primary;
    if (cache == null) {
      return; // not started yet: the first reconciles read everything anyway
    }
    String key = Indexes.configKey(kind, object.namespace(), object.name());
    for (Kustomization ks : cache.byIndex(Indexes.BY_CONFIG, key)) {
      NamespacedName target = NamespacedName.of(ks);
      pipeline.inputChanged(target, key);
      wake(target);
    }
  }

  /** Another replica's Kustomization is left alone: it is reconciled when this one takes it. */
  @Override
  public UpdateControl<Kustomization> reconcile(Kustomization ks, Context<Kustomization> context) {
    Optional<ShardGate.Pass> pass = shards.enter(ks);
    if (pass.isEmpty()) {
      return UpdateControl.noUpdate();
    }
    try (ShardGate.Pass owned = pass.get()) {
      Outcome outcome = pipeline.reconcile(ks);
      UpdateControl<Kustomization> control = UpdateControl.noUpdate();
      return outcome.requeueAfter().map(control::rescheduleAfter).orElse(control);
    } catch (WriteFence.Refused e) {
      // Lost mid-way: its new owner reconciles it; were it to come back, the gate says so.
      LOG.info("reconcile stopped before a write: {}", e.getMessage());
      return UpdateControl.noUpdate();
    }
  }

  @Override
  public DeleteControl cleanup(Kustomization ks, Context<Kustomization> context) {
    Optional<ShardGate.Pass> pass = shards.enter(ks);
    if (pass.isEmpty()) {
      return DeleteControl.noFinalizerRemoval();
    }
    try (ShardGate.Pass owned = pass.get()) {
      Deletion deletion = pipeline.delete(ks);
      return deletion
          .again()
          .map(after -> DeleteControl.noFinalizerRemoval().rescheduleAfter(after.toMillis()))
          .orElseGet(DeleteControl::defaultDelete);
    } catch (WriteFence.Refused e) {
      LOG.info("deletion stopped before a write: {}", e.getMessage());
      return DeleteControl.noFinalizerRemoval();
    }
  }

  /**
   * Reconciles what this replica just took over, and what waited for a source that another replica
   * owns once it is in this replica's store.
   */
  private void followShards(IndexerResourceCache<Kustomization> cache) {
    shards.wakeOnAcquired(cache::list, this::wake);
    shards.onStoredHere(
        (kind, source) ->
            cache.byIndex(Indexes.BY_SOURCE, Indexes.sourceKey(kind, source)).stream()
                .filter(shards::owns)
                .forEach(ks -> wake(NamespacedName.of(ks))));
  }

  @Override
  public List<EventSource<?, Kustomization>> prepareEventSources(
      EventSourceContext<Kustomization> context) {
    IndexerResourceCache<Kustomization> cache = context.getPrimaryCache();
    cache.addIndexers(
        Map.of(
            Indexes.BY_SOURCE, Indexes::sourceOf,
            Indexes.BY_DEPENDENCY, Indexes::dependenciesOf,
            Indexes.BY_CONFIG, Indexes::configsOf));
    primary = cache;
    followShards(cache);
    InformerEventSource<GitRepository, Kustomization> sources =
        sourceEvents(GitRepository.class, "sources", EventFilters::revisionChange, cache, context);
    InformerEventSource<OCIRepository, Kustomization> ociSources =
        sourceEvents(
            OCIRepository.class, "oci-sources", EventFilters::revisionChange, cache, context);
    InformerEventSource<ExternalArtifact, Kustomization> externalSources =
        sourceEvents(
            ExternalArtifact.class,
            "external-sources",
            EventFilters::revisionChange,
            cache,
            context);
    InformerEventSource<Kustomization, Kustomization> dependencies =
        SecondaryInformers.of(
            Kustomization.class,
            "dependencies",
            dep -> concerned(cache, dep),
            EventFilters::readinessOrDeletionChange,
            context);
    view.connect(dependencies, sources);
    view.connectArtifacts(ociSources, externalSources);
    InformerEventSource<Bucket, Kustomization> bucketSources =
        sourceEvents(Bucket.class, "bucket-sources", EventFilters::revisionChange, cache, context);
    view.connectBuckets(bucketSources);
    return List.of(sources, ociSources, externalSources, bucketSources, dependencies, wakeUps);
  }

  /** The changes of a kind of source that reconcile the Kustomizations naming the changed one. */
  private static <S extends HasMetadata> InformerEventSource<S, Kustomization> sourceEvents(
      Class<S> kind,
      String name,
      OnUpdateFilter<S> changed,
      IndexerResourceCache<Kustomization> cache,
      EventSourceContext<Kustomization> context) {
    String kindName = HasMetadata.getKind(kind);
    return SecondaryInformers.of(
        kind,
        name,
        source -> related(cache, Indexes.BY_SOURCE, kindName, source),
        changed,
        context);
  }

  /**
   * The Kustomizations a change of {@code ks} concerns: those that depend on it (its readiness),
   * and, while it is being deleted, those it depends on (they delete their objects after it is
   * gone).
   */
  private static Set<ResourceID> concerned(
      IndexerResourceCache<Kustomization> cache, Kustomization ks) {
    Set<ResourceID> ids = new HashSet<>(related(cache, Indexes.BY_DEPENDENCY, null, ks));
    if (ks.getMetadata().getDeletionTimestamp() != null) {
      DependencyReferences.kustomizations(ks)
          .forEach(key -> ids.add(new ResourceID(key.name(), key.namespace())));
    }
    return ids;
  }

  private static Set<ResourceID> related(
      IndexerResourceCache<Kustomization> cache, String index, String kind, HasMetadata object) {
    String key =
        kind == null
            ? NamespacedName.of(object).toString()
            : Indexes.sourceKey(kind, NamespacedName.of(object));
    return cache.byIndex(index, key).stream()
        .map(ResourceID::fromResource)
        .collect(Collectors.toSet());
  }
}
