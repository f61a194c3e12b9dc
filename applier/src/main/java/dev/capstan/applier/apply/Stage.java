package dev.capstan.applier.apply;

import dev.capstan.kube.GroupKind;
import java.util.Set;

/**
 * Apply order: definitions first (CRDs, Namespaces), then the kinds the operator named for a stage
 * of their own ({@code --custom-apply-stage-kinds}), then other cluster-scoped objects, then
 * namespaced objects. Objects within one stage are independent and applied concurrently.
 */
public enum Stage {
  DEFINITIONS,
  CUSTOM,
  CLUSTER,
  NAMESPACED;

  public static Stage of(ResourceType type) {
    return of(type, Set.of());
  }

  /** The stage of a kind, with {@code custom} the kinds of the custom stage. */
  public static Stage of(ResourceType type, Set<GroupKind> custom) {
    if (type.isCrd() || type.isNamespace()) {
      return DEFINITIONS;
    }
    if (custom.contains(type.groupKind())) {
      return CUSTOM;
    }
    return type.namespaced() ? NAMESPACED : CLUSTER;
  }
}
