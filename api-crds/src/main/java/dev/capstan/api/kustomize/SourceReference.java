package dev.capstan.api.kustomize;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;

/**
 * The source a Kustomization builds from: a GitRepository, OCIRepository, Bucket or
 * ExternalArtifact.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record SourceReference(
    @JsonPropertyDescription("API version of the source; defaults to source.capstan.dev/v1.")
        String apiVersion,
    @Required
        @JsonPropertyDescription(
            "Kind of the source: GitRepository, OCIRepository, Bucket or ExternalArtifact.")
        SourceKind kind,
    @Required String name,
    @JsonPropertyDescription("Namespace of the source; defaults to the Kustomization's namespace.")
        String namespace) {

  /** The kinds a sourceRef may name. */
  public enum SourceKind {
    GitRepository,
    OCIRepository,
    Bucket,
    ExternalArtifact
  }
}
