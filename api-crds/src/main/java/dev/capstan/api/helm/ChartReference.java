package dev.capstan.api.helm;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

/** A source object whose artifact is the chart (Flux's CrossNamespaceSourceReference). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record ChartReference(
    @JsonPropertyDescription("API version of the source.") String apiVersion,
    @Required
        @JsonPropertyDescription(
            "OCIRepository, HelmChart or ExternalArtifact (an ExternalArtifact is refused by this"
                + " engine).")
        Kind kind,
    @Required @Size(min = 1, max = 253) @JsonPropertyDescription("Name of the source.") String name,
    @Size(min = 1, max = 63)
        @JsonPropertyDescription("Namespace of the source; defaults to the HelmRelease's.")
        String namespace) {

  /** The kinds a chart may be referred to from; the constants are the API's values. */
  public enum Kind {
    OCIRepository,
    HelmChart,
    ExternalArtifact
  }
}
