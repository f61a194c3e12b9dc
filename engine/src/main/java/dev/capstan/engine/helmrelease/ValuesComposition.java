package dev.capstan.engine.helmrelease;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capstan.api.helm.ValuesReference;
import dev.capstan.decryption.Plaintexts;
import dev.capstan.kube.BoundedYaml;
import dev.capstan.source.helm.ValuesMerge;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A HelmRelease's values composed as Flux's helm-controller composes them: each {@code valuesFrom}
 * entry in order (its object's key read as a values file and merged over the ones before, or set at
 * its {@code targetPath}; a missing object or key skipped when {@code optional}), then the inline
 * {@code values} merged over them all. The chart's own defaults are not here: the chart brings them
 * when it renders. Each object is read once however many entries name it. What is read is bounded
 * in bytes and in YAML nodes; a failure names the object and key, never a value. What came from
 * Secrets is kept beside the values, so that a message quoting it can be redacted.
 */
public final class ValuesComposition {
  /** The bytes all valuesFrom entries may hold together, by default. */
  public static final long DEFAULT_MAX_BYTES = 4L * 1024 * 1024;

  /** The YAML nodes one values document may hold, by default. */
  public static final long DEFAULT_MAX_NODES = 1_000_000;

  private static final ObjectMapper JSON = new ObjectMapper();

  private final ValuesSource source;
  private final long maxBytes;
  private final long maxNodes;

  ValuesComposition(ValuesSource source, long maxBytes, long maxNodes) {
    this.source = source;
    this.maxBytes = maxBytes;
    this.maxNodes = maxNodes;
  }

  /** Reading {@code valuesFrom} with {@code client}, within the default bounds. */
  public static ValuesComposition of(KubernetesClient client) {
    return new ValuesComposition(
        new ClusterValuesSource(client), DEFAULT_MAX_BYTES, DEFAULT_MAX_NODES);
  }

  /**
   * The values of a HelmRelease of {@code namespace}.
   *
   * @param inline {@code spec.values}; null or JSON null for none
   * @throws ValuesFailure naming the object and key that could not be used
   */
  public Map<String, Object> compose(
      String namespace, List<ValuesReference> references, JsonNode inline) throws ValuesFailure {
    return composed(namespace, references, inline).values();
  }

  /**
   * Composed values and the plaintexts that came from Secrets: each leaf of a Secret key's values
   * document, and a Secret key's whole text set at a {@code targetPath}.
   */
  public record Composed(Map<String, Object> values, Plaintexts fromSecrets) {}

  /**
   * The values of a HelmRelease of {@code namespace}, with what in them came from Secrets.
   *
   * @throws ValuesFailure naming the object and key that could not be used
   */
  public Composed composed(String namespace, List<ValuesReference> references, JsonNode inline)
      throws ValuesFailure {
    Map<String, Optional<Map<String, byte[]>>> read = new HashMap<>();
    List<String> secrets = new ArrayList<>();
    Map<String, Object> result = new LinkedHashMap<>();
    long total = 0;
    for (ValuesReference reference : references) {
      Optional<byte[]> data = entry(namespace, reference, read);
      if (data.isEmpty()) {
        continue;
      }
      // a list slot a targetPath creates is charged as a pointer's worth of the budget
      String path = reference.targetPath();
      total +=
          data.get().length + (path == null || path.isEmpty() ? 0 : TargetPath.slots(path) * 8);
      if (total > maxBytes) {
        throw failure(namespace, reference, "values from valuesFrom exceed " + maxBytes + " bytes");
      }
      result = apply(namespace, reference, data.get(), result, secretsOf(reference, secrets));
    }
    return new Composed(
        ValuesMerge.over(result, inlineValues(inline)), Plaintexts.ofValues(secrets));
  }

  /** Where the plaintexts of {@code reference} are kept: nowhere unless it names a Secret. */
  private static Collection<String> secretsOf(ValuesReference reference, List<String> secrets) {
    return reference.kind() == ValuesReference.Kind.Secret ? secrets : new ArrayList<>();
  }

  /** The entry's data; empty when an optional object or key is missing. */
  private Optional<byte[]> entry(
      String namespace, ValuesReference reference, Map<String, Optional<Map<String, byte[]>>> read)
      throws ValuesFailure {
    String index = reference.kind() + "/" + reference.name();
    Optional<Map<String, byte[]>> object = read.get(index);
    if (object == null) {
      try {
        object = source.data(reference.kind(), namespace, reference.name());
      } catch (ValuesFailure e) {
        throw failure(namespace, reference, e.getMessage());
      }
      read.put(index, object);
    }
    if (object.isEmpty()) {
      return missing(namespace, reference, "resource not found");
    }
    byte[] data = object.get().get(reference.effectiveKey());
    if (data == null) {
      return missing(namespace, reference, "key not found");
    }
    return Optional.of(data);
  }

  private static Optional<byte[]> missing(
      String namespace, ValuesReference reference, String reason) throws ValuesFailure {
    if (reference.isOptional()) {
      return Optional.empty();
    }
    throw failure(namespace, reference, reason);
  }

  private Map<String, Object> apply(
      String namespace,
      ValuesReference reference,
      byte[] data,
      Map<String, Object> result,
      Collection<String> plaintexts)
      throws ValuesFailure {
    String text = new String(data, StandardCharsets.UTF_8);
    if (reference.targetPath() != null && !reference.targetPath().isEmpty()) {
      plaintexts.add(text);
      try {
        TargetPath.set(
            result, reference.targetPath(), text, Boolean.TRUE.equals(reference.literal()));
      } catch (TargetPath.Refused e) {
        throw failure(namespace, reference, "failed to merge value: " + e.getMessage());
      }
      return result;
    }
    Map<String, Object> document = document(namespace, reference, text);
    leaves(document, plaintexts);
    return ValuesMerge.over(result, document);
  }

  /** Every scalar of {@code value}, as text. */
  private static void leaves(Object value, Collection<String> into) {
    if (value instanceof Map<?, ?> map) {
      map.values().forEach(v -> leaves(v, into));
    } else if (value instanceof List<?> list) {
      list.forEach(v -> leaves(v, into));
    } else if (value != null) {
      into.add(String.valueOf(value));
    }
  }

  /** A values file as Helm reads one: a mapping, an empty document an empty one. */
  private Map<String, Object> document(String namespace, ValuesReference reference, String text)
      throws ValuesFailure {
    Object value;
    try {
      value = new BoundedYaml(maxNodes, new HelmYamlSchema()).readOne(text);
    } catch (BoundedYaml.YamlProblem e) {
      throw failure(
          namespace,
          reference,
          "failed to read values data: line "
              + e.line()
              + ", column "
              + e.column()
              + ": "
              + e.problem());
    }
    if (value == null) {
      return new LinkedHashMap<>();
    }
    if (!(value instanceof Map<?, ?> map)) {
      throw failure(namespace, reference, "failed to read values data: not a YAML mapping");
    }
    return mutableMap(map);
  }

  private static Map<String, Object> inlineValues(JsonNode inline) {
    if (inline == null || !inline.isObject()) {
      return Map.of();
    }
    return mutableMap(JSON.convertValue(inline, Map.class));
  }

  /** A copy whose maps and lists the target paths of later entries can change. */
  static Map<String, Object> mutableMap(Map<?, ?> map) {
    Map<String, Object> copy = new LinkedHashMap<>();
    map.forEach((k, v) -> copy.put(String.valueOf(k), mutable(v)));
    return copy;
  }

  private static Object mutable(Object value) {
    if (value instanceof Map<?, ?> map) {
      return mutableMap(map);
    }
    if (value instanceof List<?> list) {
      List<Object> copy = new ArrayList<>(list.size());
      list.forEach(v -> copy.add(mutable(v)));
      return copy;
    }
    return value;
  }

  /** Flux's words for a values reference that could not be used. */
  private static ValuesFailure failure(String namespace, ValuesReference reference, String reason) {
    return new ValuesFailure(
        "could not resolve"
            + (reference.isOptional() ? " optional " : " ")
            + reference.kind()
            + " chart values reference '"
            + namespace
            + "/"
            + reference.name()
            + "' with key '"
            + reference.effectiveKey()
            + "': "
            + reason);
  }
}
