package dev.capstan.applier.kustomize;

import java.util.Objects;

/**
 * Why a build failed: the step and kustomize's (or Flux's) message, which names the file at fault
 * relative to the artifact root. Messages never carry a stack trace or the contents of a Secret.
 */
public record BuildError(BuildErrorKind kind, String message) {

  public BuildError {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(message, "message");
  }
}
