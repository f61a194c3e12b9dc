package dev.capstan.applier.it;

import dev.capstan.applier.apply.ApplyResult;
import dev.capstan.applier.common.Action;
import dev.capstan.applier.common.ObjectResult;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Collectors;

/** Small helpers shared by the applier's integration tests. */
final class ItSupport {

  private ItSupport() {}

  static List<GenericKubernetesResource> objects(String multiDocYaml) {
    return Arrays.stream(multiDocYaml.split("(?m)^---\\s*$"))
        .filter(doc -> !doc.isBlank())
        .map(doc -> Serialization.unmarshal(doc, GenericKubernetesResource.class))
        .toList();
  }

  /** "Kind/ns/name" → action, for compact assertions. */
  static Map<String, Action> actions(ApplyResult result) {
    return result.objects().stream()
        .collect(
            Collectors.toMap(
                r -> r.ref().toString(), ObjectResult::action, (a, b) -> a, TreeMap::new));
  }

  static ObjectResult resultFor(ApplyResult result, String ref) {
    return result.objects().stream()
        .filter(r -> r.ref().toString().equals(ref))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no result for " + ref + " in " + result.objects()));
  }

  static String suffix() {
    return Long.toString(ThreadLocalRandom.current().nextLong(1L << 40), 36);
  }
}
