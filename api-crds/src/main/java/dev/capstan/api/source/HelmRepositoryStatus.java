package dev.capstan.api.source;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;

/** What Capstan observed at the last download of a HelmRepository's index. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record HelmRepositoryStatus(
    @JsonPropertyDescription("The generation of the spec the status was computed for.")
        Long observedGeneration,
    @JsonPropertyDescription("Ready, ArtifactInStorage, FetchFailed, Stalled.")
        List<Condition> conditions,
    @JsonPropertyDescription(
            "The index as stored: its revision is the sha256 digest of the stored index.")
        Artifact artifact,
    @JsonPropertyDescription("The last reconcile.capstan.dev/requestedAt value handled.")
        String lastHandledReconcileAt)
    implements SourceStatus {}
