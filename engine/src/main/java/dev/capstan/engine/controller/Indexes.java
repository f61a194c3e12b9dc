package dev.capstan.engine.controller;

import dev.capstan.api.kustomize.KubeConfigReference;
import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.kustomize.KustomizationSpec;
import dev.capstan.api.kustomize.SourceReference.SourceKind;
import dev.capstan.api.source.GitRepository;
import dev.capstan.engine.core.NamespacedName;
import dev.capstan.engine.dependencies.DependencyReferences;
import java.util.ArrayList;
import java.util.List;

/**
 * Indexes on the Kustomization cache that map an event on one object to the Kustomizations it
 * concerns.
 */
final class Indexes {
  /** A source's {@code Kind/namespace/name} → the Kustomizations built from it. */
  static final String BY_SOURCE = "capstan.dev/by-source";

  /** Kustomization {@code namespace/name} → the Kustomizations that depend on it. */
  static final String BY_DEPENDENCY = "capstan.dev/by-dependency";

  /**
   * {@code ConfigMap/namespace/name} or {@code Secret/namespace/name} → the Kustomizations that
   * read it.
   */
  static final String BY_CONFIG = "capstan.dev/by-config";

  /** GitRepository {@code namespace/name} → the GitRepositories that include it. */
  static final String BY_INCLUDE = "capstan.dev/by-include";

  private Indexes() {}

  static List<String> includesOf(GitRepository repo) {
    if (repo.getSpec() == null) {
      return List.of();
    }
    String namespace = repo.getMetadata().getNamespace();
    return repo.getSpec().includes().stream()
        .filter(i -> i.repository() != null && i.repository().name() != null)
        .map(i -> namespace + "/" + i.repository().name())
        .distinct()
        .toList();
  }

  static List<String> sourceOf(Kustomization ks) {
    if (ks.getSpec() == null || ks.getSpec().sourceRef() == null) {
      return List.of();
    }
    var ref = ks.getSpec().sourceRef();
    SourceKind kind = ref.kind() == null ? SourceKind.GitRepository : ref.kind();
    return List.of(
        sourceKey(
            kind.name(),
            NamespacedName.resolve(ref.namespace(), ref.name(), ks.getMetadata().getNamespace())));
  }

  /** The {@link #BY_SOURCE} key of a source. */
  static String sourceKey(String kind, NamespacedName source) {
    return kind + "/" + source;
  }

  /**
   * The ConfigMaps and Secrets a Kustomization reads, as Flux indexes them:
   * postBuild.substituteFrom, the decryption Secret and the kubeConfig Secret or ConfigMap, all in
   * its own namespace.
   */
  static List<String> configsOf(Kustomization ks) {
    KustomizationSpec spec = ks.getSpec();
    if (spec == null) {
      return List.of();
    }
    String namespace = ks.getMetadata().getNamespace();
    List<String> keys = new ArrayList<>();
    if (spec.postBuild() != null && spec.postBuild().substituteFrom() != null) {
      spec.postBuild().substituteFrom().stream()
          .filter(r -> r.kind() != null && r.name() != null)
          .forEach(r -> keys.add(configKey(r.kind().name(), namespace, r.name())));
    }
    if (spec.decryption() != null && spec.decryption().secretRef() != null) {
      add(keys, "Secret", namespace, spec.decryption().secretRef().name());
    }
    KubeConfigReference kubeConfig = spec.kubeConfig();
    if (kubeConfig != null && kubeConfig.secretRef() != null) {
      add(keys, "Secret", namespace, kubeConfig.secretRef().name());
    }
    if (kubeConfig != null && kubeConfig.configMapRef() != null) {
      add(keys, "ConfigMap", namespace, kubeConfig.configMapRef().name());
    }
    return keys.stream().distinct().toList();
  }

  private static void add(List<String> keys, String kind, String namespace, String name) {
    if (name != null) {
      keys.add(configKey(kind, namespace, name));
    }
  }

  /** The key of a ConfigMap or Secret in {@link #BY_CONFIG}. */
  static String configKey(String kind, String namespace, String name) {
    return kind + "/" + namespace + "/" + name;
  }

  static List<String> dependenciesOf(Kustomization ks) {
    return DependencyReferences.kustomizations(ks).stream()
        .map(NamespacedName::toString)
        .distinct()
        .toList();
  }
}
