package dev.capstan.engine.dependencies;

import dev.capstan.api.kustomize.DependencyReference;
import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.engine.core.NamespacedName;
import java.util.List;

/** Which dependsOn entries name Kustomizations, and which other objects. */
public final class DependencyReferences {
  private DependencyReferences() {}

  /**
   * Whether an entry names a Kustomization: no kind (as in Flux), or Capstan's Kustomization kind.
   */
  public static boolean isKustomization(DependencyReference ref) {
    if (ref.kind() == null || ref.kind().isEmpty()) {
      return true;
    }
    return "Kustomization".equals(ref.kind())
        && (ref.apiVersion() == null || ref.apiVersion().startsWith(Kustomization.GROUP + "/"));
  }

  /** The keys of the Kustomizations {@code ks} depends on (its other dependencies left out). */
  public static List<NamespacedName> kustomizations(Kustomization ks) {
    List<DependencyReference> refs = ks.getSpec() == null ? null : ks.getSpec().dependsOn();
    if (refs == null) {
      return List.of();
    }
    String namespace = ks.getMetadata().getNamespace();
    return refs.stream()
        .filter(DependencyReferences::isKustomization)
        .map(r -> NamespacedName.resolve(r.namespace(), r.name(), namespace))
        .toList();
  }

  /**
   * The object an entry names, its namespace defaulted to {@code namespace}; for an entry that is
   * not a Kustomization.
   */
  public static ObjectDependency object(DependencyReference ref, String namespace) {
    return new ObjectDependency(
        ref.apiVersion(),
        ref.kind(),
        ref.namespace() == null || ref.namespace().isEmpty() ? namespace : ref.namespace(),
        ref.name());
  }
}
