package dev.capstan.applier.diff;

import dev.capstan.applier.apply.SecretStringData;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * Replaces every Secret value with a mask before anything is rendered. Keys stay visible; a value
 * that differs between live and desired is marked so the diff still shows that it changed.
 */
final class SecretMasking {

  static final String UNCHANGED = "*** (unchanged)";
  static final String BEFORE_CHANGE = "***";
  static final String CHANGED = "*** (changed)";

  private SecretMasking() {}

  static boolean isSecret(Map<String, Object> object) {
    return object != null
        && "Secret".equals(object.get("kind"))
        && "v1".equals(object.get("apiVersion"));
  }

  /** Masks {@code data} and {@code stringData} of both sides in place. Either side may be null. */
  static void mask(Map<String, Object> live, Map<String, Object> desired) {
    Map<String, Object> liveValues = values(live);
    Map<String, Object> desiredValues = values(desired);
    if (live != null) {
      replace(live, key -> same(key, liveValues, desiredValues) ? UNCHANGED : BEFORE_CHANGE);
    }
    if (desired != null) {
      replace(desired, key -> same(key, desiredValues, liveValues) ? UNCHANGED : CHANGED);
    }
  }

  /** Whether the other side has {@code key} too, with the same value. */
  private static boolean same(String key, Map<String, Object> side, Map<String, Object> other) {
    return other.containsKey(key) && Objects.equals(side.get(key), other.get(key));
  }

  /** All values by key; stringData compared in its base64 form, as the server stores it. */
  private static Map<String, Object> values(Map<String, Object> secret) {
    return secret == null ? new LinkedHashMap<>() : SecretStringData.dataOf(secret);
  }

  @SuppressWarnings("unchecked")
  private static void replace(Map<String, Object> secret, Function<String, String> maskFor) {
    for (String field : new String[] {"data", "stringData"}) {
      if (secret.get(field) instanceof Map<?, ?> values) {
        Map<String, Object> masked = new LinkedHashMap<>();
        ((Map<String, Object>) values).keySet().forEach(k -> masked.put(k, maskFor.apply(k)));
        secret.put(field, masked);
      }
    }
  }
}
