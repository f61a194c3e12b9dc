package dev.capstan.applier.apply;

/**
 * Apply order: definitions first (CRDs, Namespaces), then other cluster-scoped objects, then
 * namespaced objects. Objects within one stage are independent and applied concurrently.
 */
public enum Stage {
  DEFINITIONS,
  CLUSTER,
  NAMESPACED;

  public static Stage of(ResourceType type) {
    if (type.isCrd() || type.isNamespace()) {
      return DEFINITIONS;
    }
    return type.namespaced() ? NAMESPACED : CLUSTER;
  }
}
