package dev.capstan.applier.build;

/** Carries a {@link BuildError} out of the depths of a build to {@link ManifestBuilder}. */
final class BuildFailure extends RuntimeException {
  private final transient BuildError error;

  BuildFailure(BuildError error) {
    super(error.describe(), null, false, false);
    this.error = error;
  }

  BuildFailure(BuildErrorKind kind, Origin origin, String message) {
    this(new BuildError(kind, origin.file(), origin.line(), message));
  }

  BuildError error() {
    return error;
  }
}
