package dev.capstan.api.kustomize;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;

/** CEL expressions that decide the health of every object of one apiVersion and kind. */
public record HealthCheckExpression(
    @Required String apiVersion,
    @Required String kind,
    @Required @JsonPropertyDescription("CEL expression that is true when the object is healthy.")
    String current,
    @JsonPropertyDescription("CEL expression that is true while the object is progressing.")
    String inProgress,
    @JsonPropertyDescription("CEL expression that is true when the object has failed.")
    String failed) {}
