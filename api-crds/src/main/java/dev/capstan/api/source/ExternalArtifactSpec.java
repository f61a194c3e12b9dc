package dev.capstan.api.source;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** What an ExternalArtifact is made from. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record ExternalArtifactSpec(
    @JsonPropertyDescription("The object the artifact is generated for.")
        ExternalArtifactSourceReference sourceRef) {}
