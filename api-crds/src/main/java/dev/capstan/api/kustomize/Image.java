package dev.capstan.api.kustomize;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.fabric8.generator.annotation.Required;

/** An image override, as in kustomize's {@code images} field. */
@JsonIgnoreProperties(ignoreUnknown = true)
public record Image(@Required String name, String newName, String newTag, String digest) {}
