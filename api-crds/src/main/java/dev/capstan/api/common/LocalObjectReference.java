package dev.capstan.api.common;

import io.fabric8.generator.annotation.Required;

/** A reference to an object in the same namespace by name (e.g. a Secret). */
public record LocalObjectReference(
    @Required @com.fasterxml.jackson.annotation.JsonPropertyDescription("Name of the object.") String name) {}
