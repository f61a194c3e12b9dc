package dev.capstan.api.source;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** The artifact of one included GitRepository that the current artifact was built with. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record IncludedArtifact(
    @JsonPropertyDescription("Name of the included GitRepository.") String name,
    @JsonPropertyDescription("Its revision that was included.") String revision,
    @JsonPropertyDescription("Digest of its artifact.") String digest,
    @JsonPropertyDescription("Where it was copied to in this artifact.") String toPath) {}
