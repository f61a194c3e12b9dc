package dev.capstan.applier.build;

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
  /** The artifact could not be read (or is larger than a build may hold). */
  ARTIFACT,
  /** The build module failed in a way no input should cause. */
  INTERNAL
}
