package dev.capstan.applier.apply;

import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;

/** How the API server serves one kind: its plural resource name and scope. */
public record ResourceType(
    String group, String version, String kind, String plural, boolean namespaced) {

  public ResourceDefinitionContext context() {
    return new ResourceDefinitionContext.Builder()
        .withGroup(group)
        .withVersion(version)
        .withKind(kind)
        .withPlural(plural)
        .withNamespaced(namespaced)
        .build();
  }

  public String apiVersion() {
    return group.isEmpty() ? version : group + "/" + version;
  }

  public boolean isCrd() {
    return "apiextensions.k8s.io".equals(group) && "CustomResourceDefinition".equals(kind);
  }

  public boolean isNamespace() {
    return group.isEmpty() && "Namespace".equals(kind);
  }
}
