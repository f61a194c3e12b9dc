package dev.capstan.api.kustomize;

import io.fabric8.generator.annotation.Required;

/** An object whose health the Kustomization waits for when {@code wait} is false. */
public record HealthCheckReference(
    String apiVersion, @Required String kind, @Required String name, String namespace) {}
