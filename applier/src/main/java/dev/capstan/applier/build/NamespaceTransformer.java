package dev.capstan.applier.build;

import java.util.List;

/**
 * Puts every namespaced object into one namespace, as kustomize's {@code namespace} field and a
 * Kustomization's {@code targetNamespace} do. Cluster-scoped kinds keep no namespace; a Namespace
 * object in the build is renamed to the target, as kustomize does.
 */
final class NamespaceTransformer {
  private final String namespace;

  NamespaceTransformer(String namespace) {
    this.namespace = namespace;
  }

  void apply(List<Resource> resources) {
    if (namespace.isEmpty()) {
      return;
    }
    for (Resource resource : resources) {
      if (resource.kind().equals("Namespace") && resource.group().isEmpty()) {
        resource.rename(namespace);
      } else if (!KindTable.isClusterScoped(resource)) {
        resource.setNamespace(namespace);
      }
    }
  }
}
