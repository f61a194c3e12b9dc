package dev.capstan.applier.kustomize;

import java.util.Objects;

/**
 * An entry of {@code images}: containers whose image is {@code name} get the new name, tag or
 * digest.
 */
public record ImageOverride(String name, String newName, String newTag, String digest) {
  public ImageOverride {
    Objects.requireNonNull(name, "name");
  }
}
