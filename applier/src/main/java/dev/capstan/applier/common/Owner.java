package dev.capstan.applier.common;

import java.util.Map;
import java.util.Objects;

/** The Kustomization that owns the applied objects; named on every object by two labels. */
public record Owner(String name, String namespace) {

  public static final String NAME_LABEL = "kustomize.capstan.dev/name";
  public static final String NAMESPACE_LABEL = "kustomize.capstan.dev/namespace";

  public Owner {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(namespace, "namespace");
  }

  public Map<String, String> labels() {
    return Map.of(NAME_LABEL, name, NAMESPACE_LABEL, namespace);
  }

  /** Whether an object's labels name this owner. Objects without both labels are not ours. */
  public boolean owns(Map<String, String> objectLabels) {
    if (objectLabels == null) {
      return false;
    }
    return name.equals(objectLabels.get(NAME_LABEL))
        && namespace.equals(objectLabels.get(NAMESPACE_LABEL));
  }

  @Override
  public String toString() {
    return namespace + "/" + name;
  }
}
