package dev.capstan.applier.diff;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.github.difflib.DiffUtils;
import com.github.difflib.UnifiedDiffUtils;
import dev.capstan.applier.common.CapstanMetadata;
import dev.capstan.kube.ObjectRef;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Renders live and desired state of one object as a unified diff of their YAML, with the fields the
 * server maintains stripped and Secret values masked.
 */
public final class DiffRenderer {

  private static final ObjectMapper YAML =
      Serialization.yamlMapper()
          .copy()
          .configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true);
  private static final List<String> SERVER_METADATA =
      List.of(
          "managedFields", "resourceVersion", "uid", "creationTimestamp", "generation", "selfLink");
  private static final List<String> NOISY_ANNOTATIONS =
      List.of(CapstanMetadata.APPLIED_DIGEST, "kubectl.kubernetes.io/last-applied-configuration");

  private DiffRenderer() {}

  /**
   * The unified diff, or "" when the two sides are equal. {@code live} is null for a new object.
   */
  public static String render(
      ObjectRef ref, Map<String, Object> live, Map<String, Object> desired) {
    Map<String, Object> before = live == null ? null : clean(live);
    Map<String, Object> after = clean(desired);
    if (SecretMasking.isSecret(after) || SecretMasking.isSecret(before)) {
      SecretMasking.mask(before, after);
    }
    List<String> beforeLines = before == null ? List.of() : lines(before);
    List<String> afterLines = lines(after);
    if (beforeLines.equals(afterLines)) {
      return "";
    }
    var patch = DiffUtils.diff(beforeLines, afterLines);
    List<String> out =
        UnifiedDiffUtils.generateUnifiedDiff(
            live == null ? "/dev/null" : "live/" + ref, "desired/" + ref, beforeLines, patch, 3);
    return String.join("\n", out) + "\n";
  }

  /** A deep copy without status and server-maintained metadata. */
  @SuppressWarnings("unchecked")
  static Map<String, Object> clean(Map<String, Object> object) {
    Map<String, Object> copy = Serialization.jsonMapper().convertValue(object, LinkedHashMap.class);
    copy.remove("status");
    if (copy.get("metadata") instanceof Map<?, ?> metadata) {
      Map<String, Object> meta = (Map<String, Object>) metadata;
      SERVER_METADATA.forEach(meta::remove);
      if (meta.get("annotations") instanceof Map<?, ?> annotations) {
        NOISY_ANNOTATIONS.forEach(annotations::remove);
        if (annotations.isEmpty()) {
          meta.remove("annotations");
        }
      }
    }
    return copy;
  }

  private static List<String> lines(Map<String, Object> object) {
    try {
      String yaml = YAML.writeValueAsString(object);
      List<String> lines = new ArrayList<>(List.of(yaml.split("\n")));
      if (!lines.isEmpty() && lines.get(0).equals("---")) {
        lines.remove(0);
      }
      return lines;
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot render object as YAML", e);
    }
  }
}
