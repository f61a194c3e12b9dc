package dev.capstan.cli.bootstrap;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What keeps Capstan up to date from Git: a GitRepository of the bootstrapped repository and a
 * Kustomization of its path, both named after the engine's namespace, as Flux names its own.
 *
 * @param namespace the engine's namespace, and the two objects' name
 * @param url the repository
 * @param branch the branch followed
 * @param path the repository path the Kustomization applies (holding {@code <namespace>/})
 * @param interval how often the repository is fetched, in Go syntax
 * @param secretName the Secret with the Git credentials, or null for none
 */
record SyncManifests(
    String namespace, String url, String branch, String path, String interval, String secretName) {

  /** The file in {@code <path>/<namespace>/} that holds the install. */
  static final String COMPONENTS = "capstan-components.yaml";

  /** The file in {@code <path>/<namespace>/} that holds the two sync objects. */
  static final String SYNC = "capstan-sync.yaml";

  /** How often the Kustomization applies the path again, undoing drift. */
  static final String APPLY_INTERVAL = "10m";

  List<GenericKubernetesResource> objects() {
    return List.of(gitRepository(), kustomization());
  }

  GenericKubernetesResource gitRepository() {
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("url", url);
    spec.put("ref", Map.of("branch", branch));
    spec.put("interval", interval);
    if (secretName != null) {
      spec.put("secretRef", Map.of("name", secretName));
    }
    return object("source.capstan.dev/v1", "GitRepository", spec);
  }

  GenericKubernetesResource kustomization() {
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("sourceRef", Map.of("kind", "GitRepository", "name", namespace));
    spec.put("path", "./" + path);
    spec.put("interval", APPLY_INTERVAL);
    spec.put("prune", true);
    return object("kustomize.capstan.dev/v1", "Kustomization", spec);
  }

  /** The kustomization.yaml of {@code <path>/<namespace>/}. */
  static String kustomizationFile() {
    return "apiVersion: kustomize.config.k8s.io/v1beta1\n"
        + "kind: Kustomization\n"
        + "resources:\n"
        + "  - "
        + COMPONENTS
        + "\n"
        + "  - "
        + SYNC
        + "\n";
  }

  private GenericKubernetesResource object(
      String apiVersion, String kind, Map<String, Object> spec) {
    return new GenericKubernetesResourceBuilder()
        .withApiVersion(apiVersion)
        .withKind(kind)
        .withNewMetadata()
        .withName(namespace)
        .withNamespace(namespace)
        .endMetadata()
        .addToAdditionalProperties("spec", spec)
        .build();
  }
}
