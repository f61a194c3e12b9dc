package dev.capstan.applier.build;

/** What kind of problem stopped a build; callers branch on it, users read {@link BuildError#describe()}. */
public enum BuildErrorKind {
  /** A file is not valid YAML. */
  MALFORMED_YAML,
  /** A document is not a Kubernetes object (no apiVersion, kind or name). */
  INVALID_OBJECT,
  /** A file or directory named by the build does not exist. */
  MISSING_RESOURCE,
  /** A path escapes the artifact root. */
  OUTSIDE_ROOT,
  /** A kustomization file uses a field that Capstan does not support. */
  UNSUPPORTED_FIELD,
  /** A kustomization file has a supported field with an invalid value. */
  INVALID_KUSTOMIZATION,
  /** A patch is invalid or cannot be applied. */
  INVALID_PATCH,
  /** A patch names an object that is not in the build. */
  PATCH_TARGET_NOT_FOUND,
  /** A ConfigMap or Secret generator cannot produce its object. */
  INVALID_GENERATOR,
  /** Two objects have the same group, kind, namespace and name. */
  DUPLICATE_OBJECT,
  /** A post-build variable is malformed or a substitution source is missing. */
  SUBSTITUTION,
  /** A file could not be read. */
  IO
}
