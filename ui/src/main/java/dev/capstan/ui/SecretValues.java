package dev.capstan.ui;

import dev.capstan.kube.SecretEntries;
import dev.capstan.kube.SecretUnavailable;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The values of the Secrets a revision holds, to take out of anything the page shows besides the
 * masked diff: the API server's reason for refusing a Secret may quote the value it refused.
 */
final class SecretValues {
  /** Shorter values would mask ordinary words; the diff itself never shows any value. */
  static final int MIN_LENGTH = 4;

  static final String MASK = "***";

  private final List<String> values;

  private SecretValues(Set<String> values) {
    this.values =
        values.stream()
            .filter(v -> v.length() >= MIN_LENGTH)
            .sorted(Comparator.comparingInt(String::length).reversed())
            .toList();
  }

  static SecretValues of(List<GenericKubernetesResource> objects) {
    Set<String> found = new LinkedHashSet<>();
    for (GenericKubernetesResource object : objects) {
      if (!"Secret".equals(object.getKind()) || !"v1".equals(object.getApiVersion())) {
        continue;
      }
      Map<String, Object> fields = object.getAdditionalProperties();
      if (fields.get("data") instanceof Map<?, ?> data) {
        data.forEach(
            (k, v) -> {
              String encoded = String.valueOf(v);
              found.add(encoded);
              decoded(String.valueOf(k), encoded).ifPresent(found::add);
            });
      }
      if (fields.get("stringData") instanceof Map<?, ?> data) {
        data.values()
            .forEach(
                v -> {
                  String plain = String.valueOf(v);
                  found.add(plain);
                  found.add(
                      Base64.getEncoder().encodeToString(plain.getBytes(StandardCharsets.UTF_8)));
                });
      }
    }
    return new SecretValues(found);
  }

  /** {@code text} with every value (and each of its lines) replaced by {@link #MASK}. */
  String redact(String text) {
    if (text == null || values.isEmpty()) {
      return text;
    }
    String out = text;
    for (String value : values) {
      out = out.replace(value, MASK).replace(quoted(value), MASK);
      for (String line : value.split("\\R")) {
        if (line.strip().length() >= MIN_LENGTH) {
          out = out.replace(line.strip(), MASK);
        }
      }
    }
    return out;
  }

  /** As a JSON or Go string quotes it (a server's message quotes values that way). */
  private static String quoted(String value) {
    return value
        .replace("\\", "\\\\")
        .replace("\"", "\\\"")
        .replace("\n", "\\n")
        .replace("\t", "\\t")
        .replace("\r", "\\r");
  }

  /**
   * The text of one {@code data} entry, decoded alone: an entry that is not Base64 (the server
   * would refuse the Secret) keeps only its raw form masked, and the others their decoded one.
   */
  private static Optional<String> decoded(String key, String encoded) {
    try {
      return SecretEntries.of(new SecretBuilder().addToData(key, encoded).build()).text(key);
    } catch (SecretUnavailable notBase64) {
      return Optional.empty();
    }
  }
}
