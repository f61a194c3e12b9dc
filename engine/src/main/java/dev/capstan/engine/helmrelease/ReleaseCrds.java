package dev.capstan.engine.helmrelease;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capstan.api.helm.CrdsPolicy;
import dev.capstan.kube.BoundedYaml;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The chart's {@code crds/} as Helm treats them: rendered at the head of the manifest, then taken
 * out of it, so they are never in the release record's manifest nor in the inventory (a later
 * version that leaves them out, or an upgrade that skips them, never prunes them, and an uninstall
 * leaves them), and written by the action's {@code crds} policy: {@code Create} creates those that
 * are absent and never updates one, {@code CreateReplace} creates and updates them.
 */
final class ReleaseCrds {
  /** A {@code crds/} file of the chart or of a subchart, as Helm's render names its source. */
  private static final Pattern CRD_SOURCE =
      Pattern.compile("^# Source: [^/\\n]+(?:/charts/[^/\\n]+)*/crds/");

  private static final Pattern SEPARATOR = Pattern.compile("(?m)^---\\n");
  private static final ObjectMapper JSON = new ObjectMapper();

  private ReleaseCrds() {}

  /**
   * A rendered manifest split in two.
   *
   * @param crds the documents of the chart's {@code crds/}, each after its {@code ---}
   * @param manifest the rest, as rendered: the release record's manifest
   */
  record Split(String crds, String manifest) {}

  static Split split(String manifest) {
    String[] chunks = SEPARATOR.split(manifest, -1);
    StringBuilder crds = new StringBuilder();
    StringBuilder rest = new StringBuilder(chunks[0]);
    for (int i = 1; i < chunks.length; i++) {
      StringBuilder to = CRD_SOURCE.matcher(chunks[i]).lookingAt() ? crds : rest;
      to.append("---\n").append(chunks[i]);
    }
    return new Split(crds.toString(), rest.toString());
  }

  /**
   * The CRDs of {@code crds} to write under {@code policy}: none with Skip, the absent ones with
   * Create, all with CreateReplace.
   *
   * @throws IllegalArgumentException when they are not YAML, never quoting them
   */
  static List<GenericKubernetesResource> toWrite(
      String crds, CrdsPolicy policy, ReleaseActors.CrdLookup lookup) {
    if (policy == CrdsPolicy.Skip || crds.isEmpty()) {
      return List.of();
    }
    List<GenericKubernetesResource> writes = new ArrayList<>();
    for (GenericKubernetesResource crd : objects(crds)) {
      String name = crd.getMetadata() == null ? null : crd.getMetadata().getName();
      if (policy == CrdsPolicy.CreateReplace || name == null || !lookup.exists(name)) {
        writes.add(crd);
      }
    }
    return writes;
  }

  private static List<GenericKubernetesResource> objects(String crds) {
    List<BoundedYaml.Document> documents;
    try {
      documents = new BoundedYaml(50L * ManifestObjects.MAX_OBJECTS * 100).readAll(crds);
    } catch (BoundedYaml.YamlProblem e) {
      throw new IllegalArgumentException("the chart's CRDs are not YAML: " + e.getMessage());
    }
    List<GenericKubernetesResource> objects = new ArrayList<>();
    for (BoundedYaml.Document document : documents) {
      if (document.value() instanceof Map<?, ?>) {
        if (objects.size() == ManifestObjects.MAX_OBJECTS) {
          throw new IllegalArgumentException(
              "the chart has more than " + ManifestObjects.MAX_OBJECTS + " CRDs");
        }
        objects.add(JSON.convertValue(document.value(), GenericKubernetesResource.class));
      }
    }
    return objects;
  }
}
