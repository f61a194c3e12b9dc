package dev.capstan.source.helm;

import io.soabase.recordbuilder.core.RecordBuilder;
import java.time.Duration;
import java.util.List;

/**
 * One build of a HelmChart's artifact.
 *
 * @param key the artifact store's key of the HelmChart (e.g. {@code helmchart/ns/name})
 * @param chart the chart's name in a repository's index, or the path of its directory in a source's
 *     artifact
 * @param version a semver range (charts from a repository only); null or blank for the latest
 * @param valuesFiles merged in order into the packaged chart's values.yaml; empty for none
 * @param ignoreMissingValuesFiles leave out a missing values file instead of failing
 * @param versionMetadata what the packaged chart's version gets after a {@code +} (Flux's rule: the
 *     source's short revision and/or the HelmChart's generation); null for none
 * @param timeout how long a chart's download or packaging may take; 60 seconds when null
 */
@RecordBuilder
public record ChartRequest(
    String key,
    String chart,
    String version,
    List<String> valuesFiles,
    boolean ignoreMissingValuesFiles,
    String versionMetadata,
    Duration timeout)
    implements ChartRequestBuilder.With {

  static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

  public ChartRequest {
    valuesFiles = valuesFiles == null ? List.of() : List.copyOf(valuesFiles);
    timeout = timeout == null ? DEFAULT_TIMEOUT : timeout;
  }

  public static ChartRequest of(String key, String chart) {
    return new ChartRequest(key, chart, null, null, false, null, null);
  }

  /** What decides whether a stored chart still answers this request, apart from its source. */
  String identity() {
    return String.join(
        "\n",
        chart,
        String.valueOf(version),
        String.join("\u0000", valuesFiles),
        String.valueOf(ignoreMissingValuesFiles),
        String.valueOf(versionMetadata));
  }
}
