package dev.capstan.api.source;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;

/** What Capstan observed at the last build of a HelmChart. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record HelmChartStatus(
    @JsonPropertyDescription("The generation of the spec the status was computed for.")
        Long observedGeneration,
    @JsonPropertyDescription("The revision of the source's artifact last seen.")
        String observedSourceArtifactRevision,
    @JsonPropertyDescription("The name of the chart in the current artifact.")
        String observedChartName,
    @JsonPropertyDescription(
            "The values files merged into the current artifact, when ignoreMissingValuesFiles "
                + "is set.")
        List<String> observedValuesFiles,
    @JsonPropertyDescription("Ready, ArtifactInStorage, FetchFailed, Stalled.")
        List<Condition> conditions,
    @JsonPropertyDescription("The packaged chart; its revision is the chart's version.")
        Artifact artifact,
    @JsonPropertyDescription("Not written; the artifact's URL is artifact.url.") String url,
    @JsonPropertyDescription("The last reconcile.capstan.dev/requestedAt value handled.")
        String lastHandledReconcileAt)
    implements SourceStatus {}
