package dev.capstan.api.source;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;

/** The artifact an ExternalArtifact's producer published. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record ExternalArtifactStatus(
    @JsonPropertyDescription(
            "The artifact: url of a tar+gzip file, its sha256 digest, revision, and more.")
        Artifact artifact,
    @JsonPropertyDescription("The producer's conditions (Ready).") List<Condition> conditions) {}
