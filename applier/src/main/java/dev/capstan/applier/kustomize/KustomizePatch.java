package dev.capstan.applier.kustomize;

import java.util.Objects;

/**
 * A patch from a Kustomization's {@code spec.patches}: a strategic merge patch, a JSON merge patch
 * or a JSON 6902 operation list (YAML or JSON), with an optional target selector.
 */
public record KustomizePatch(String patch, PatchSelector target) {
  public KustomizePatch {
    Objects.requireNonNull(patch, "patch");
  }
}
