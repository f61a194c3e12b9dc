package dev.capstan.api.source;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;

/** What Capstan observed at the last pull of an OCIRepository. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record OCIRepositoryStatus(
    @JsonPropertyDescription("The generation of the spec the status was computed for.")
        Long observedGeneration,
    @JsonPropertyDescription("Ready, ArtifactInStorage, FetchFailed, SourceVerified, Stalled.")
        List<Condition> conditions,
    @JsonPropertyDescription(
            "The artifact Kustomizations use; metadata holds the OCI manifest's annotations.")
        Artifact artifact,
    @JsonPropertyDescription("The spec.ignore the current artifact was made with.")
        String observedIgnore,
    @JsonPropertyDescription("The spec.layerSelector the current artifact was made with.")
        OCILayerSelector observedLayerSelector,
    @JsonPropertyDescription("The last reconcile.capstan.dev/requestedAt value handled.")
        String lastHandledReconcileAt)
    implements SourceStatus {}
