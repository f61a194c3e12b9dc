package dev.capstan.applier.apply;

import dev.capstan.applier.CapstanMetadata;
import dev.capstan.applier.ObjectRef;
import dev.capstan.applier.Owner;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An object exactly as Capstan sends it: namespace settled, status dropped, ownership labels and
 * the digest annotation added. The digest covers everything else Capstan sends.
 */
public record DesiredObject(
    ObjectRef ref, ResourceType type, GenericKubernetesResource object, String digest) {

  public static DesiredObject prepare(
      GenericKubernetesResource raw, ResourceType type, Owner owner, String defaultNamespace) {
    GenericKubernetesResource object = Serialization.clone(raw);
    object.getAdditionalProperties().remove("status");
    ObjectMeta meta = object.getMetadata();
    if (!type.namespaced()) {
      meta.setNamespace(null);
    } else if (meta.getNamespace() == null || meta.getNamespace().isEmpty()) {
      meta.setNamespace(defaultNamespace);
    }
    Map<String, String> labels = new LinkedHashMap<>();
    if (meta.getLabels() != null) {
      labels.putAll(meta.getLabels());
    }
    labels.putAll(owner.labels());
    meta.setLabels(labels);
    Map<String, String> annotations = new LinkedHashMap<>();
    if (meta.getAnnotations() != null) {
      annotations.putAll(meta.getAnnotations());
    }
    annotations.remove(CapstanMetadata.APPLIED_DIGEST);
    meta.setAnnotations(annotations.isEmpty() ? null : annotations);
    String digest = ManifestDigest.of(asMap(object));
    annotations.put(CapstanMetadata.APPLIED_DIGEST, digest);
    meta.setAnnotations(annotations);
    return new DesiredObject(ObjectRef.of(object), type, object, digest);
  }

  @SuppressWarnings("unchecked")
  public static Map<String, Object> asMap(Object object) {
    return Serialization.jsonMapper().convertValue(object, Map.class);
  }

  public boolean isCrd() {
    return type.isCrd();
  }

  public boolean isNamespace() {
    return type.isNamespace();
  }
}
