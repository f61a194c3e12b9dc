package dev.capstan.applier.apply;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The kinds that CustomResourceDefinitions of one revision define, read from their specs. */
final class RevisionCrds {

  private final List<ResourceType> defined;

  private RevisionCrds(List<ResourceType> defined) {
    this.defined = defined;
  }

  public static RevisionCrds of(List<GenericKubernetesResource> objects) {
    List<ResourceType> defined = new ArrayList<>();
    for (GenericKubernetesResource object : objects) {
      if ("CustomResourceDefinition".equals(object.getKind())
          && String.valueOf(object.getApiVersion()).startsWith("apiextensions.k8s.io/")) {
        defined.addAll(typesOf(object));
      }
    }
    return new RevisionCrds(List.copyOf(defined));
  }

  public Optional<ResourceType> find(String apiVersion, String kind) {
    return defined.stream()
        .filter(t -> t.apiVersion().equals(apiVersion) && t.kind().equals(kind))
        .findFirst();
  }

  @SuppressWarnings("unchecked")
  private static List<ResourceType> typesOf(GenericKubernetesResource crd) {
    Object specValue = crd.getAdditionalProperties().get("spec");
    if (!(specValue instanceof Map<?, ?> spec)) {
      return List.of();
    }
    Map<String, Object> names = (Map<String, Object>) spec.get("names");
    Object versions = spec.get("versions");
    if (names == null || !(versions instanceof List<?> versionList)) {
      return List.of();
    }
    String group = String.valueOf(spec.get("group"));
    boolean namespaced = !"Cluster".equals(spec.get("scope"));
    List<ResourceType> types = new ArrayList<>();
    for (Object v : versionList) {
      if (v instanceof Map<?, ?> version && !Boolean.FALSE.equals(version.get("served"))) {
        types.add(
            new ResourceType(
                group,
                String.valueOf(version.get("name")),
                String.valueOf(names.get("kind")),
                String.valueOf(names.get("plural")),
                namespaced));
      }
    }
    return types;
  }
}
