package dev.capstan.engine.controller;

import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.kustomize.SourceReference.SourceKind;
import dev.capstan.api.source.GitRepository;
import dev.capstan.engine.NamespacedName;
import dev.capstan.engine.dependencies.DependencyReferences;
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

  static List<String> dependenciesOf(Kustomization ks) {
    return DependencyReferences.kustomizations(ks).stream()
        .map(NamespacedName::toString)
        .distinct()
        .toList();
  }
}
