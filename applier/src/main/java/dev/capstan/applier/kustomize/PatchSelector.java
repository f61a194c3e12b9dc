package dev.capstan.applier.kustomize;

/**
 * Which objects a patch applies to, as in a kustomization's {@code patches[].target}. Null fields
 * match anything; {@code name}, {@code namespace} and {@code kind} are anchored regular
 * expressions, as kustomize treats them; the selectors use Kubernetes label-selector syntax.
 */
public record PatchSelector(
    String group,
    String version,
    String kind,
    String name,
    String namespace,
    String labelSelector,
    String annotationSelector) {

  /** A selector naming one object by kind and name. */
  public static PatchSelector of(String kind, String name) {
    return new PatchSelector(null, null, kind, name, null, null, null);
  }
}
