package dev.capstan.source.core;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A map that keeps at most a fixed number of entries and drops the least recently used beyond it:
 * what the sources remember per tenant input (clients, tokens, probes, proxy authenticators) stays
 * bounded however many tenants there are. Not thread-safe; its owners synchronize.
 */
public final class RecentlyUsed<K, V> extends LinkedHashMap<K, V> {
  private final int max;

  public RecentlyUsed(int max) {
    super(16, 0.75f, true);
    this.max = max;
  }

  @Override
  protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
    return size() > max;
  }
}
