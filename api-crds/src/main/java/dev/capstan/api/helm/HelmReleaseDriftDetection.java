package dev.capstan.api.helm;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.capstan.api.kustomize.DriftDetection;
import dev.capstan.api.kustomize.IgnoreRule;
import java.util.List;

/** How a release's objects changed in the cluster by another writer are handled. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record HelmReleaseDriftDetection(
    @JsonPropertyDescription(
            "enabled: a changed or deleted object is applied again. warn: it is reported in the"
                + " Drifted condition. disabled (the default): objects are not compared.")
        DriftDetection.Mode mode,
    @JsonPropertyDescription("Fields left out of the comparison, for the objects a target selects.")
        List<IgnoreRule> ignore) {}
