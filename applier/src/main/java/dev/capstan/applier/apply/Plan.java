package dev.capstan.applier.apply;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;

/**
 * What to do with one object: nothing (unchanged), or a write in its stage. A deferred write can
 * only be dry-run once the definitions stage has created its CRD or Namespace. {@code takeOver}
 * says that fields of managers Capstan overrides are taken over before the write.
 */
record Plan(
    DesiredObject desired,
    GenericKubernetesResource live,
    boolean unchanged,
    boolean deferred,
    Stage stage,
    boolean takeOver) {}
