package dev.capstan.engine.pipeline;

import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.source.Bucket;
import dev.capstan.api.source.ExternalArtifact;
import dev.capstan.api.source.GitRepository;
import dev.capstan.api.source.OCIRepository;
import dev.capstan.engine.core.NamespacedName;
import java.util.Collection;
import java.util.Optional;

/**
 * Read access to the Capstan objects the pipeline looks at; the controller serves it from caches.
 */
public interface ClusterView {

  Optional<GitRepository> gitRepository(NamespacedName key);

  Optional<Kustomization> kustomization(NamespacedName key);

  /** An OCIRepository a Kustomization builds from; none where this view does not know them. */
  default Optional<OCIRepository> ociRepository(NamespacedName key) {
    return Optional.empty();
  }

  /** A Bucket a Kustomization builds from; none where this view does not know them. */
  default Optional<Bucket> bucket(NamespacedName key) {
    return Optional.empty();
  }

  /** An ExternalArtifact a Kustomization builds from; none where this view does not know them. */
  default Optional<ExternalArtifact> externalArtifact(NamespacedName key) {
    return Optional.empty();
  }

  /** Every Kustomization this engine watches (for dependency cycles). */
  Collection<Kustomization> kustomizations();
}
