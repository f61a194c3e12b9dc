package dev.capstan.api.source;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;

/** What Capstan observed at the last fetch of a Bucket. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record BucketStatus(
    @JsonPropertyDescription("The generation of the spec the status was computed for.")
        Long observedGeneration,
    @JsonPropertyDescription("Ready, ArtifactInStorage, FetchFailed, Stalled.")
        List<Condition> conditions,
    @JsonPropertyDescription(
            "The objects as stored: the revision is the sha256 digest of the index of their keys "
                + "and ETags, as Flux computes it.")
        Artifact artifact,
    @JsonPropertyDescription("The spec.ignore the current artifact was made with.")
        String observedIgnore,
    @JsonPropertyDescription("The last reconcile.capstan.dev/requestedAt value handled.")
        String lastHandledReconcileAt)
    implements SourceStatus {}
