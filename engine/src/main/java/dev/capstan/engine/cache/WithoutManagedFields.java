package dev.capstan.engine.cache;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;
import java.util.stream.Stream;

/**
 * An informer store that keeps objects without {@code metadata.managedFields}. Nothing the engine
 * reads from a cache needs them (the applier reads field ownership from its own LIST), and they are
 * the biggest part of a small object: about a third of the engine's heap with a thousand
 * Kustomizations of four objects each.
 */
public final class WithoutManagedFields<T extends HasMetadata> implements ItemStore<T> {

  private final BasicItemStore<T> items = new BasicItemStore<>(Cache::metaNamespaceKeyFunc);

  @Override
  public String getKey(T object) {
    return items.getKey(object);
  }

  @Override
  public T put(String key, T object) {
    if (object.getMetadata() != null) {
      object.getMetadata().setManagedFields(null);
    }
    return items.put(key, object);
  }

  @Override
  public T remove(String key) {
    return items.remove(key);
  }

  @Override
  public Stream<String> keySet() {
    return items.keySet();
  }

  @Override
  public Stream<T> values() {
    return items.values();
  }

  @Override
  public int size() {
    return items.size();
  }

  @Override
  public T get(String key) {
    return items.get(key);
  }
}
