package dev.capstan.api.common;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;

/** A reference to an object in the same namespace by name (e.g. a Secret). */
@JsonIgnoreProperties(ignoreUnknown = true)
public record LocalObjectReference(
    @Required @JsonPropertyDescription("Name of the object, in the same namespace.") String name) {}
