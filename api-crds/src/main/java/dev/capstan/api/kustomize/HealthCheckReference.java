package dev.capstan.api.kustomize;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.fabric8.generator.annotation.Required;

/** An object whose health the Kustomization waits for when {@code wait} is false. */
@JsonIgnoreProperties(ignoreUnknown = true)
public record HealthCheckReference(
    String apiVersion, @Required String kind, @Required String name, String namespace) {}
