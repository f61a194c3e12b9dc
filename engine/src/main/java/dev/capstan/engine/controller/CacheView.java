package dev.capstan.engine.controller;

import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.source.GitRepository;
import dev.capstan.engine.NamespacedName;
import dev.capstan.engine.pipeline.ClusterView;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.IndexerResourceCache;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import java.util.Collection;
import java.util.Optional;

/** The pipeline's view of Capstan objects, served from the controller's informer caches. */
final class CacheView implements ClusterView {
  private volatile IndexerResourceCache<Kustomization> kustomizations;
  private volatile InformerEventSource<GitRepository, Kustomization> gitRepositories;

  void connect(IndexerResourceCache<Kustomization> kustomizationCache,
      InformerEventSource<GitRepository, Kustomization> gitRepositorySource) {
    this.kustomizations = kustomizationCache;
    this.gitRepositories = gitRepositorySource;
  }

  @Override
  public Optional<GitRepository> gitRepository(NamespacedName key) {
    return gitRepositories.get(new ResourceID(key.name(), key.namespace()));
  }

  @Override
  public Optional<Kustomization> kustomization(NamespacedName key) {
    return kustomizations.get(new ResourceID(key.name(), key.namespace()));
  }

  @Override
  public Collection<Kustomization> kustomizations() {
    return kustomizations.list().toList();
  }
}
