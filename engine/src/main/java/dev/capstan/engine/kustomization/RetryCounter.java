package dev.capstan.engine.kustomization;

import dev.capstan.engine.core.NamespacedName;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Consecutive transient failures per object, for backoff; forgotten on success. */
final class RetryCounter {
  private final Map<NamespacedName, Integer> failures = new ConcurrentHashMap<>();

  int failed(NamespacedName key) {
    return failures.merge(key, 1, Integer::sum);
  }

  void reset(NamespacedName key) {
    failures.remove(key);
  }
}
