package dev.capstan.applier.apply;

import dev.capstan.applier.common.ObjectResult;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;

/**
 * What to do with one object: a write in its stage, or nothing, with the result already known
 * ({@code settled}: unchanged, drift reported, or left out). A deferred write can only be dry-run
 * once the definitions stage has created its CRD or Namespace. {@code takeOver} says that fields of
 * managers Capstan overrides are taken over before the write.
 */
record Plan(
    DesiredObject desired,
    GenericKubernetesResource live,
    ObjectResult settled,
    boolean deferred,
    Stage stage,
    boolean takeOver) {

  /** True when nothing is written for the object. */
  boolean unchanged() {
    return settled != null;
  }
}
