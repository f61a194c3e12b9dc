package dev.capstan.api.source;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;

/** The object an ExternalArtifact is generated for (any kind). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record ExternalArtifactSourceReference(
    @JsonPropertyDescription("API version of the object.") String apiVersion,
    @Required @JsonPropertyDescription("Kind of the object.") String kind,
    @Required @JsonPropertyDescription("Name of the object.") String name,
    @JsonPropertyDescription("Namespace of the object.") String namespace) {}
