package dev.capstan.applier.common;

import java.util.Map;
import java.util.Objects;

/**
 * The Kustomization or HelmRelease that owns the applied objects; named on every object by two
 * labels of its API group ({@code <group>/name}, {@code <group>/namespace}).
 */
public record Owner(String name, String namespace, String group) {

  public static final String KUSTOMIZATION_GROUP = "kustomize.capstan.dev";
  public static final String HELM_RELEASE_GROUP = "helm.capstan.dev";
  public static final String NAME_LABEL = KUSTOMIZATION_GROUP + "/name";
  public static final String NAMESPACE_LABEL = KUSTOMIZATION_GROUP + "/namespace";

  public Owner {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(group, "group");
  }

  /** A Kustomization's objects. */
  public Owner(String name, String namespace) {
    this(name, namespace, KUSTOMIZATION_GROUP);
  }

  /** The objects of the HelmRelease {@code namespace/name}. */
  public static Owner helmRelease(String name, String namespace) {
    return new Owner(name, namespace, HELM_RELEASE_GROUP);
  }

  public String nameLabel() {
    return group + "/name";
  }

  public String namespaceLabel() {
    return group + "/namespace";
  }

  /** What owns the objects, as messages name it. */
  public String kind() {
    return HELM_RELEASE_GROUP.equals(group) ? "HelmRelease" : "Kustomization";
  }

  public Map<String, String> labels() {
    return Map.of(nameLabel(), name, namespaceLabel(), namespace);
  }

  /** Whether an object's labels name this owner. Objects without both labels are not ours. */
  public boolean owns(Map<String, String> objectLabels) {
    if (objectLabels == null) {
      return false;
    }
    return name.equals(objectLabels.get(nameLabel()))
        && namespace.equals(objectLabels.get(namespaceLabel()));
  }

  @Override
  public String toString() {
    return namespace + "/" + name;
  }
}
