package dev.capstan.applier.kustomize;

/**
 * Stops a build with an error that {@link ManifestBuilder} turns into a {@link BuildResult.Failed}.
 */
final class BuildException extends RuntimeException {
  private final transient BuildErrorKind kind;

  BuildException(BuildErrorKind kind, String message) {
    super(message, null, false, false);
    this.kind = kind;
  }

  BuildError error() {
    return new BuildError(kind, getMessage());
  }
}
