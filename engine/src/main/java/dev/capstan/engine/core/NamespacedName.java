package dev.capstan.engine.core;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Comparator;
import java.util.Objects;

/** The key of a namespaced object: {@code namespace/name}. Ordered lexicographically. */
public record NamespacedName(String namespace, String name) implements Comparable<NamespacedName> {
  private static final Comparator<NamespacedName> ORDER =
      Comparator.comparing(NamespacedName::namespace).thenComparing(NamespacedName::name);

  public NamespacedName {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(name, "name");
  }

  public static NamespacedName of(HasMetadata object) {
    return new NamespacedName(object.getMetadata().getNamespace(), object.getMetadata().getName());
  }

  /** A reference that may omit its namespace, resolved against the referrer's namespace. */
  public static NamespacedName resolve(String namespace, String name, String defaultNamespace) {
    return new NamespacedName(
        namespace == null || namespace.isEmpty() ? defaultNamespace : namespace, name);
  }

  @Override
  public int compareTo(NamespacedName other) {
    return ORDER.compare(this, other);
  }

  @Override
  public String toString() {
    return namespace + "/" + name;
  }
}
