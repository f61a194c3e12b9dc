package dev.capstan.engine.dependencies;

import dev.capstan.kube.ApiVersion;
import java.util.Objects;

/**
 * A dependsOn entry that names an object other than a Kustomization. {@code namespace} is empty for
 * a cluster-scoped kind. Printed as {@code apiVersion/Kind/namespace/name} ({@code
 * apps/v1/Deployment/web/db}), or {@code apiVersion/Kind/name} at cluster scope.
 */
public record ObjectDependency(String apiVersion, String kind, String namespace, String name)
    implements Comparable<ObjectDependency> {
  public ObjectDependency {
    Objects.requireNonNull(apiVersion, "apiVersion");
    Objects.requireNonNull(kind, "kind");
    namespace = namespace == null ? "" : namespace;
    Objects.requireNonNull(name, "name");
  }

  /** The API group; empty for the core group ({@code v1}). */
  public String group() {
    return ApiVersion.of(apiVersion).group();
  }

  /** The same object at cluster scope (when discovery says the kind is not namespaced). */
  public ObjectDependency clusterScoped() {
    return new ObjectDependency(apiVersion, kind, "", name);
  }

  /** By how it prints, so that a cycle of them starts at the same member for each. */
  @Override
  public int compareTo(ObjectDependency other) {
    return toString().compareTo(other.toString());
  }

  @Override
  public String toString() {
    return apiVersion + "/" + kind + "/" + (namespace.isEmpty() ? "" : namespace + "/") + name;
  }
}
