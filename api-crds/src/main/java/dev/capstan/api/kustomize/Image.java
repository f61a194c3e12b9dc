package dev.capstan.api.kustomize;

import io.fabric8.generator.annotation.Required;

/** An image override, as in kustomize's {@code images} field. */
public record Image(@Required String name, String newName, String newTag, String digest) {}
