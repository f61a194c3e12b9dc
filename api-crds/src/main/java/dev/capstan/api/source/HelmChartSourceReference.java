package dev.capstan.api.source;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;

/**
 * The source of a HelmChart, in the HelmChart's namespace (Flux's LocalHelmChartSourceReference).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record HelmChartSourceReference(
    @JsonPropertyDescription("API version of the source.") String apiVersion,
    @Required
        @JsonPropertyDescription(
            "HelmRepository, GitRepository or Bucket (a chart from a Bucket is refused by this "
                + "engine).")
        Kind kind,
    @Required @JsonPropertyDescription("Name of the source.") String name) {

  /** The kinds a chart may come from; the constants are the API's values. */
  public enum Kind {
    HelmRepository,
    GitRepository,
    Bucket
  }
}
