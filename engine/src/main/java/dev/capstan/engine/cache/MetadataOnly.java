package dev.capstan.engine.cache;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;

/**
 * An informer store that keeps only the identity of each object (name, namespace, uid,
 * resourceVersion). For an informer whose events are all that is used: one that watches every
 * object of a kind (Secrets, say) must not hold their contents in the engine's heap.
 */
public final class MetadataOnly extends TrimmingStore<GenericKubernetesResource> {

  @Override
  GenericKubernetesResource trim(GenericKubernetesResource object) {
    GenericKubernetesResource stub = new GenericKubernetesResource();
    stub.setApiVersion(object.getApiVersion());
    stub.setKind(object.getKind());
    if (object.getMetadata() != null) {
      stub.setMetadata(
          new ObjectMetaBuilder()
              .withName(object.getMetadata().getName())
              .withNamespace(object.getMetadata().getNamespace())
              .withUid(object.getMetadata().getUid())
              .withResourceVersion(object.getMetadata().getResourceVersion())
              .build());
    }
    return stub;
  }
}
