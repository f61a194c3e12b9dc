package dev.capstan.kube;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Secret;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The entries of one Secret, decoded: {@code data} from Base64, and {@code stringData} over it, as
 * the API server merges them when the Secret is written (a Secret read back from the server has
 * only {@code data}; one from a manifest may have both). Values are never part of {@link
 * #toString()} or of any message.
 *
 * @param namespace the Secret's namespace ({@code ""} when it has none, as in a manifest)
 * @param name the Secret's name
 * @param values every entry's bytes, by key
 */
public record SecretEntries(String namespace, String name, Map<String, byte[]> values) {

  public SecretEntries {
    namespace = namespace == null ? "" : namespace;
    values = Collections.unmodifiableMap(new TreeMap<>(values));
  }

  /**
   * The entries of {@code secret}.
   *
   * @throws SecretUnavailable ({@link SecretUnavailable.Kind#MALFORMED}) when a {@code data} entry
   *     is not Base64
   */
  public static SecretEntries of(Secret secret) throws SecretUnavailable {
    ObjectMeta metadata = secret.getMetadata() == null ? new ObjectMeta() : secret.getMetadata();
    // A manifest's Secret may have neither: named in messages as it is, never as "null".
    String namespace = Objects.requireNonNullElse(metadata.getNamespace(), "");
    String name = Objects.requireNonNullElse(metadata.getName(), "");
    Map<String, byte[]> values = new TreeMap<>();
    if (secret.getData() != null) {
      for (Map.Entry<String, String> entry : secret.getData().entrySet()) {
        values.put(entry.getKey(), decode(entry, namespace, name));
      }
    }
    if (secret.getStringData() != null) {
      secret
          .getStringData()
          .forEach(
              (key, value) ->
                  values.put(
                      key, value == null ? new byte[0] : value.getBytes(StandardCharsets.UTF_8)));
    }
    return new SecretEntries(namespace, name, values);
  }

  /** The value of {@code key}, if the Secret has it. */
  public Optional<byte[]> bytes(String key) {
    return Optional.ofNullable(values.get(key)).map(byte[]::clone);
  }

  /** The value of {@code key} as UTF-8 text, if the Secret has it. */
  public Optional<String> text(String key) {
    return Optional.ofNullable(values.get(key)).map(v -> new String(v, StandardCharsets.UTF_8));
  }

  /** Whether the Secret has {@code key}. */
  public boolean has(String key) {
    return values.containsKey(key);
  }

  /** {@code Secret 'namespace/name'}: how every message names this Secret. */
  public String where() {
    return SecretUnavailable.where(namespace, name);
  }

  @Override
  public String toString() {
    return where() + " with keys " + values.keySet();
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof SecretEntries that
        && namespace.equals(that.namespace)
        && name.equals(that.name)
        && values.keySet().equals(that.values.keySet())
        && values.entrySet().stream()
            .allMatch(e -> Arrays.equals(e.getValue(), that.values.get(e.getKey())));
  }

  @Override
  public int hashCode() {
    return namespace.hashCode() * 31 + name.hashCode();
  }

  private static byte[] decode(Map.Entry<String, String> entry, String namespace, String name)
      throws SecretUnavailable {
    String value = entry.getValue();
    if (value == null) {
      return new byte[0];
    }
    try {
      return Base64.getDecoder().decode(value);
    } catch (IllegalArgumentException e) {
      throw new SecretUnavailable(
          SecretUnavailable.Kind.MALFORMED,
          SecretUnavailable.where(namespace, name)
              + " entry '"
              + entry.getKey()
              + "' is not Base64");
    }
  }
}
