package dev.capstan.api.source;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.capstan.api.common.GoDuration;
import dev.capstan.api.common.ReconciledSpec;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import java.util.ArrayList;
import java.util.List;

/** The desired state of a HelmChart; field names and meaning follow Flux's v1 API. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record HelmChartSpec(
    @Required
        @JsonPropertyDescription(
            "The chart's name in a HelmRepository, or the path of the chart directory in a "
                + "GitRepository's artifact.")
        String chart,
    @Default("\"*\"")
        @JsonPropertyDescription(
            "Semver range of the chart's version (HelmRepository only); defaults to the latest.")
        String version,
    @Required @JsonPropertyDescription("Where the chart is.") HelmChartSourceReference sourceRef,
    @Required
        @Pattern(GoDuration.PATTERN)
        @JsonPropertyDescription("How often the source is checked for a new chart.")
        String interval,
    @Default("ChartVersion")
        @JsonPropertyDescription(
            "What makes a new artifact: ChartVersion (a new chart version) or Revision (a new "
                + "revision of the source, for charts from a GitRepository).")
        ReconcileStrategy reconcileStrategy,
    @JsonPropertyDescription(
            "Values files in the source, merged in order over the chart's values.yaml; the "
                + "result is packaged as the chart's values.yaml.")
        List<String> valuesFiles,
    @JsonPropertyDescription("Deprecated: a values file merged before valuesFiles.")
        String valuesFile,
    @JsonPropertyDescription("Leave out a missing values file instead of failing.")
        Boolean ignoreMissingValuesFiles,
    @JsonPropertyDescription("Stop checking this chart.") Boolean suspend,
    @JsonPropertyDescription(
            "Namespaces allowed to refer to this chart (accepted, not enforced, as in Flux).")
        AccessFrom accessFrom,
    @JsonPropertyDescription(
            "Signature verification; only for charts from a HelmRepository of type oci, which "
                + "this engine does not pull yet, so refused by name.")
        OCIRepositoryVerification verify)
    implements ReconciledSpec {

  /** Flux's reconcile strategies; the constants are the API's values. */
  public enum ReconcileStrategy {
    ChartVersion,
    Revision
  }

  /** A HelmChart has no timeout of its own: its source's applies. */
  @Override
  public String timeout() {
    return null;
  }

  /** {@code version}, {@code *} when absent. */
  public String effectiveVersion() {
    return version == null || version.isBlank() ? "*" : version;
  }

  /** {@code reconcileStrategy}, ChartVersion when absent. */
  public ReconcileStrategy effectiveStrategy() {
    return reconcileStrategy == null ? ReconcileStrategy.ChartVersion : reconcileStrategy;
  }

  /** {@code ignoreMissingValuesFiles}, false when absent. */
  public boolean missingValuesFilesIgnored() {
    return Boolean.TRUE.equals(ignoreMissingValuesFiles);
  }

  /** The values files in merge order: the deprecated {@code valuesFile} first, as Flux has it. */
  public List<String> allValuesFiles() {
    List<String> all = new ArrayList<>();
    if (valuesFile != null && !valuesFile.isEmpty()) {
      all.add(valuesFile);
    }
    if (valuesFiles != null) {
      all.addAll(valuesFiles);
    }
    return List.copyOf(all);
  }
}
