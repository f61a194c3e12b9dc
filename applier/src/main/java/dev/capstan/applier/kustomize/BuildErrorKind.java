package dev.capstan.applier.kustomize;

/** Which step stopped a build; callers branch on it, users read {@link BuildError#message()}. */
public enum BuildErrorKind {
  /** The path to build does not exist in the artifact, or is not a directory. */
  PATH_NOT_FOUND,
  /** The directory's kustomization could not be read or generated (or a manifest decoded). */
  INVALID_KUSTOMIZATION,
  /** kustomize's build failed; the message is kustomize's. */
  KUSTOMIZE,
  /** An object of the build has no apiVersion, kind or name. */
  INVALID_OBJECT,
  /** Post-build variable substitution failed. */
  SUBSTITUTION,
  /** The build ran past its time, memory or nesting limit and was stopped. */
  LIMIT_EXCEEDED,
  /** The artifact is not in local storage, or not where builds may read. */
  ARTIFACT,
  /**
   * No build can run as it must here: no build worker for this machine, or a kernel that cannot
   * confine one where confinement is required. Nothing a revision changes will mend it.
   */
  SANDBOX,
  /** The build worker failed in a way no input should cause. */
  INTERNAL
}
