package dev.capstan.applier.apply;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A Secret's {@code stringData} folded into {@code data}, as the API server stores it. Applied as
 * {@code stringData}, a value someone later changes under {@code data} is a field Capstan does not
 * own, so the change would never be seen as drift nor undone; applied as {@code data}, it is.
 */
public final class SecretStringData {
  private SecretStringData() {}

  /** Folds in place; a key in both keeps the {@code stringData} value, as the API server does. */
  static void fold(GenericKubernetesResource object) {
    if (!"v1".equals(object.getApiVersion()) || !"Secret".equals(object.getKind())) {
      return;
    }
    Map<String, Object> fields = object.getAdditionalProperties();
    if (!(fields.get("stringData") instanceof Map<?, ?>)) {
      return;
    }
    Map<String, Object> data = dataOf(fields);
    fields.remove("stringData");
    fields.put("data", data);
  }

  /**
   * A Secret's {@code data} with its {@code stringData} folded in, base64-encoded, as the API
   * server stores them: a key in both keeps the {@code stringData} value.
   */
  public static Map<String, Object> dataOf(Map<String, ?> secret) {
    Map<String, Object> data = new LinkedHashMap<>();
    if (secret.get("data") instanceof Map<?, ?> existing) {
      existing.forEach((k, v) -> data.put(String.valueOf(k), v));
    }
    if (secret.get("stringData") instanceof Map<?, ?> stringData) {
      stringData.forEach((k, v) -> data.put(String.valueOf(k), base64(v)));
    }
    return data;
  }

  private static String base64(Object value) {
    String text = value == null ? "" : String.valueOf(value);
    return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }
}
