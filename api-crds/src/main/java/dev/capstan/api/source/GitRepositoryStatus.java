package dev.capstan.api.source;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;

/** What Capstan observed at the last fetch of a GitRepository. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record GitRepositoryStatus(
    @JsonPropertyDescription("The generation of the spec the status was computed for.")
        Long observedGeneration,
    @JsonPropertyDescription(
            "Ready, ArtifactInStorage, FetchFailed, IncludeUnavailable, SourceVerified, Stalled.")
        List<Condition> conditions,
    @JsonPropertyDescription("The artifact Kustomizations use.") Artifact artifact,
    @JsonPropertyDescription("The last reconcile.capstan.dev/requestedAt value handled.")
        String lastHandledReconcileAt,
    @JsonPropertyDescription("The artifacts of spec.include the current artifact was built with.")
        List<IncludedArtifact> includedArtifacts,
    @JsonPropertyDescription("The spec.verify.mode the current artifact was verified with.")
        String sourceVerificationMode)
    implements SourceStatus {

  public GitRepositoryStatus(
      Long observedGeneration,
      List<Condition> conditions,
      Artifact artifact,
      String lastHandledReconcileAt) {
    this(observedGeneration, conditions, artifact, lastHandledReconcileAt, null, null);
  }
}
