package dev.capstan.api.helm;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.capstan.api.common.GoDuration;
import dev.capstan.api.common.LocalObjectReference;
import dev.capstan.api.source.HelmChartSourceReference;
import dev.capstan.api.source.HelmChartSpec;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import java.util.List;
import java.util.Map;

/** The HelmChart a HelmRelease's {@code spec.chart} describes (Flux's HelmChartTemplate). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record HelmChartTemplate(
    @JsonPropertyDescription("Labels and annotations of the HelmChart.") Metadata metadata,
    @Required @JsonPropertyDescription("The HelmChart's spec.") Spec spec) {

  /** Labels and annotations given to the HelmChart. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Metadata(Map<String, String> labels, Map<String, String> annotations) {}

  /** The spec of the HelmChart, with a source that may be in another namespace. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Spec(
      @Required
          @Size(min = 1, max = 2048)
          @JsonPropertyDescription(
              "The chart's name in a HelmRepository, or its path in a GitRepository.")
          String chart,
      @Default("\"*\"")
          @JsonPropertyDescription(
              "Semver range of the chart's version (HelmRepository only); defaults to the"
                  + " latest.")
          String version,
      @Required @JsonPropertyDescription("Where the chart is.") ChartSourceReference sourceRef,
      @Pattern(GoDuration.PATTERN)
          @JsonPropertyDescription(
              "How often the HelmChart checks its source; defaults to the release's interval.")
          String interval,
      @Default("ChartVersion")
          @JsonPropertyDescription("ChartVersion or Revision, as a HelmChart's.")
          HelmChartSpec.ReconcileStrategy reconcileStrategy,
      @JsonPropertyDescription("Values files in the source merged over the chart's values.yaml.")
          List<String> valuesFiles,
      @JsonPropertyDescription("Leave out a missing values file instead of failing.")
          Boolean ignoreMissingValuesFiles,
      @JsonPropertyDescription("Signature verification of an OCI chart, as a HelmChart's.")
          Verification verify) {}

  /** The signature an OCI chart must carry. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Verification(
      @Required @Default("cosign") @JsonPropertyDescription("cosign (the default) or notation.")
          Provider provider,
      @JsonPropertyDescription("Secret whose *.pub values are the trusted public keys.")
          LocalObjectReference secretRef) {

    /** The signature providers; the constants are the API's values. */
    public enum Provider {
      cosign,
      notation
    }
  }

  /** The source of the chart, by kind, name and namespace (default: the HelmRelease's). */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record ChartSourceReference(
      @JsonPropertyDescription("API version of the source.") String apiVersion,
      @Required @JsonPropertyDescription("HelmRepository, GitRepository or Bucket.")
          HelmChartSourceReference.Kind kind,
      @Required @Size(min = 1, max = 253) @JsonPropertyDescription("Name of the source.")
          String name,
      @Size(min = 1, max = 63)
          @JsonPropertyDescription("Namespace of the source; defaults to the HelmRelease's.")
          String namespace) {}
}
