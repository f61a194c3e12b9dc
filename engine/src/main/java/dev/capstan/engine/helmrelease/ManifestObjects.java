package dev.capstan.engine.helmrelease;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capstan.api.helm.HelmRelease;
import dev.capstan.applier.common.Owner;
import dev.capstan.kube.BoundedYaml;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The objects of a rendered manifest, each with the metadata Helm's own install puts on what it
 * creates (the {@code meta.helm.sh/release-name} and {@code release-namespace} annotations and the
 * {@code app.kubernetes.io/managed-by: Helm} label), so that {@code helm upgrade} by hand takes the
 * objects over as its own. A manifest of more than {@link #MAX_OBJECTS} objects is refused.
 */
final class ManifestObjects {
  static final int MAX_OBJECTS = 10_000;
  static final String MANAGED_BY = "app.kubernetes.io/managed-by";

  private static final ObjectMapper JSON = new ObjectMapper();

  private ManifestObjects() {}

  /**
   * The objects of {@code manifest}.
   *
   * @throws IllegalArgumentException saying what is wrong, never quoting the manifest
   */
  static List<GenericKubernetesResource> of(String manifest, HelmRelease release) {
    return parse(manifest, "the rendered manifest").stream().map(o -> owned(o, release)).toList();
  }

  /**
   * The objects of {@code manifest} as it is: a rendered one, or one a release record holds.
   *
   * @param subject what the manifest is, as the error names it ({@code the rendered manifest})
   * @throws IllegalArgumentException saying what is wrong, never quoting the manifest
   */
  static List<GenericKubernetesResource> parse(String manifest, String subject) {
    List<BoundedYaml.Document> documents;
    try {
      documents = new BoundedYaml(50L * MAX_OBJECTS * 100).readAll(manifest);
    } catch (BoundedYaml.YamlProblem e) {
      throw new IllegalArgumentException(subject + " is not YAML: " + e.getMessage());
    }
    List<GenericKubernetesResource> objects = new ArrayList<>();
    for (BoundedYaml.Document document : documents) {
      if (!(document.value() instanceof Map<?, ?>)) {
        continue; // an empty document, as Helm skips one
      }
      if (objects.size() == MAX_OBJECTS) {
        throw new IllegalArgumentException(subject + " has more than " + MAX_OBJECTS + " objects");
      }
      objects.add(JSON.convertValue(document.value(), GenericKubernetesResource.class));
    }
    return objects;
  }

  private static GenericKubernetesResource owned(
      GenericKubernetesResource object, HelmRelease release) {
    ObjectMeta meta = object.getMetadata() == null ? new ObjectMeta() : object.getMetadata();
    Map<String, String> annotations =
        meta.getAnnotations() == null
            ? new LinkedHashMap<>()
            : new LinkedHashMap<>(meta.getAnnotations());
    annotations.put(Owner.HELM_RELEASE_NAME, release.releaseName());
    annotations.put(Owner.HELM_RELEASE_NAMESPACE, release.releaseNamespace());
    Map<String, String> labels =
        meta.getLabels() == null ? new LinkedHashMap<>() : new LinkedHashMap<>(meta.getLabels());
    labels.put(MANAGED_BY, "Helm");
    meta.setAnnotations(annotations);
    meta.setLabels(labels);
    object.setMetadata(meta);
    return object;
  }
}
