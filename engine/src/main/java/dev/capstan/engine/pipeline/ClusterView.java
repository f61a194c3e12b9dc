package dev.capstan.engine.pipeline;

import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.source.GitRepository;
import dev.capstan.engine.NamespacedName;
import java.util.Collection;
import java.util.Optional;

/**
 * Read access to the Capstan objects the pipeline looks at; the controller serves it from caches.
 */
public interface ClusterView {

  Optional<GitRepository> gitRepository(NamespacedName key);

  Optional<Kustomization> kustomization(NamespacedName key);

  /** Every Kustomization this engine watches (for dependency cycles). */
  Collection<Kustomization> kustomizations();
}
