package dev.capstan.applier.apply;

import dev.capstan.kube.ApiVersion;
import dev.capstan.kube.GroupKind;
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

  /** The kind, as kinds are matched (the version never takes part). */
  public GroupKind groupKind() {
    return new GroupKind(group, kind);
  }

  public String apiVersion() {
    return new ApiVersion(group, version).toString();
  }

  public boolean isCrd() {
    return "apiextensions.k8s.io".equals(group) && "CustomResourceDefinition".equals(kind);
  }

  public boolean isNamespace() {
    return group.isEmpty() && "Namespace".equals(kind);
  }
}
