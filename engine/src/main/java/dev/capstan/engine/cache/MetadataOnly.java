package dev.capstan.engine.cache;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;
import java.util.stream.Stream;

/**
 * An informer store that keeps only the identity of each object (name, namespace, uid,
 * resourceVersion). For an informer whose events are all that is used: one that watches every
 * object of a kind (Secrets, say) must not hold their contents in the engine's heap.
 */
public final class MetadataOnly implements ItemStore<GenericKubernetesResource> {

  private final BasicItemStore<GenericKubernetesResource> items =
      new BasicItemStore<>(Cache::metaNamespaceKeyFunc);

  @Override
  public String getKey(GenericKubernetesResource object) {
    return items.getKey(object);
  }

  @Override
  public GenericKubernetesResource put(String key, GenericKubernetesResource object) {
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
    return items.put(key, stub);
  }

  @Override
  public GenericKubernetesResource remove(String key) {
    return items.remove(key);
  }

  @Override
  public Stream<String> keySet() {
    return items.keySet();
  }

  @Override
  public Stream<GenericKubernetesResource> values() {
    return items.values();
  }

  @Override
  public int size() {
    return items.size();
  }

  @Override
  public GenericKubernetesResource get(String key) {
    return items.get(key);
  }
}
