package dev.capstan.engine.controller;

import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.source.Bucket;
import dev.capstan.api.source.ExternalArtifact;
import dev.capstan.api.source.GitRepository;
import dev.capstan.api.source.OCIRepository;
import dev.capstan.engine.core.NamespacedName;
import dev.capstan.engine.pipeline.ClusterView;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * The pipeline's view of Capstan objects, served from the informers whose events wake the
 * reconciles: a dependent woken by a dependency's change must read the dependency from the cache
 * that saw the change, not from another informer that may not have caught up yet.
 */
public final class CacheView implements ClusterView {
  private volatile InformerEventSource<Kustomization, Kustomization> kustomizations;
  private volatile InformerEventSource<GitRepository, Kustomization> gitRepositories;

  private volatile InformerEventSource<OCIRepository, Kustomization> ociRepositories;
  private volatile InformerEventSource<ExternalArtifact, Kustomization> externalArtifacts;
  private volatile InformerEventSource<Bucket, Kustomization> buckets;

  void connect(
      InformerEventSource<Kustomization, Kustomization> dependencySource,
      InformerEventSource<GitRepository, Kustomization> gitRepositorySource) {
    this.kustomizations = dependencySource;
    this.gitRepositories = gitRepositorySource;
  }

  void connectArtifacts(
      InformerEventSource<OCIRepository, Kustomization> ociRepositorySource,
      InformerEventSource<ExternalArtifact, Kustomization> externalArtifactSource) {
    this.ociRepositories = ociRepositorySource;
    this.externalArtifacts = externalArtifactSource;
  }

  void connectBuckets(InformerEventSource<Bucket, Kustomization> bucketSource) {
    this.buckets = bucketSource;
  }

  /** Empty also before the controllers started, when there is no cache yet. */
  @Override
  public Optional<Bucket> bucket(NamespacedName key) {
    return cached(buckets, key);
  }

  /** Empty also before the controllers started, when there is no cache yet. */
  @Override
  public Optional<OCIRepository> ociRepository(NamespacedName key) {
    return cached(ociRepositories, key);
  }

  /** Empty also before the controllers started, when there is no cache yet. */
  @Override
  public Optional<ExternalArtifact> externalArtifact(NamespacedName key) {
    return cached(externalArtifacts, key);
  }

  /** Empty also before the controllers started, when there is no cache yet. */
  @Override
  public Optional<GitRepository> gitRepository(NamespacedName key) {
    return cached(gitRepositories, key);
  }

  /** Empty also before the controllers started, when there is no cache yet. */
  @Override
  public Optional<Kustomization> kustomization(NamespacedName key) {
    return cached(kustomizations, key);
  }

  /** None also before the controllers started. */
  @Override
  public Collection<Kustomization> kustomizations() {
    InformerEventSource<Kustomization, Kustomization> cache = kustomizations;
    return cache == null ? List.of() : cache.list(k -> true).toList();
  }

  /** The object {@code key} in {@code cache}; empty too when there is no cache yet. */
  static <T extends HasMetadata> Optional<T> cached(
      InformerEventSource<T, ?> cache, NamespacedName key) {
    return cache == null
        ? Optional.empty()
        : cache.get(new ResourceID(key.name(), key.namespace()));
  }
}
