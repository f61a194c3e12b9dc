package dev.capstan.engine.cache;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;
import java.util.stream.Stream;

/**
 * An informer store keyed as the informer's own ({@code namespace/name}) that keeps each object as
 * {@link #trim} leaves it: the stores differ only in what they drop.
 */
abstract class TrimmingStore<T extends HasMetadata> implements ItemStore<T> {

  private final BasicItemStore<T> items = new BasicItemStore<>(Cache::metaNamespaceKeyFunc);

  /** What is kept of {@code object}: itself with fields removed, or a smaller copy. */
  abstract T trim(T object);

  @Override
  public final String getKey(T object) {
    return items.getKey(object);
  }

  @Override
  public final T put(String key, T object) {
    return items.put(key, trim(object));
  }

  @Override
  public final T remove(String key) {
    return items.remove(key);
  }

  @Override
  public final Stream<String> keySet() {
    return items.keySet();
  }

  @Override
  public final Stream<T> values() {
    return items.values();
  }

  @Override
  public final int size() {
    return items.size();
  }

  @Override
  public final T get(String key) {
    return items.get(key);
  }
}
