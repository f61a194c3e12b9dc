package dev.capstan.api.source;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.capstan.api.common.LocalObjectReference;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

/** Another GitRepository's artifact copied into this one's (Flux's {@code spec.include[]}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record GitRepositoryInclude(
    @Required
        @JsonPropertyDescription("The GitRepository in this namespace whose artifact is included.")
        LocalObjectReference repository,
    @Size(max = 4096)
        @JsonPropertyDescription(
            "Directory of the included artifact to copy; defaults to its root. "
                + "Relative, without '..'.")
        String fromPath,
    @Size(max = 4096)
        @JsonPropertyDescription(
            "Directory of this artifact to copy it to; defaults to the included "
                + "repository's name. Relative, without '..'.")
        String toPath) {}
