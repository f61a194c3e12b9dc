package dev.capstan.applier.build;

/**
 * A patch as written in a kustomization: inline text or a file path, an optional target, and
 * which field it came from (the legacy fields behave slightly differently).
 */
record PatchSpec(Source source, String inline, String path, PatchSelector target, Origin origin) {

  /** The kustomization field a patch came from; also the order kustomize applies them in. */
  enum Source {
    PATCHES_STRATEGIC_MERGE,
    PATCHES,
    PATCHES_JSON6902
  }
}
