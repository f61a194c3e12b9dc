package dev.capstan.helm.release;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * The chart a release record stores, as Helm writes it: Chart.yaml's {@code metadata}, Chart.lock's
 * {@code lock}, the templates, the chart's own values, its JSON schema and its other files. Helm
 * writes every one of these keys, null when the chart has none, and {@code schemamodtime} as Go's
 * zero time; {@code helm get}, {@code helm history} and {@code helm rollback} read the metadata,
 * the values and the templates from here.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record ReleaseChart(
    @JsonProperty("metadata") JsonNode metadata,
    @JsonProperty("lock") JsonNode lock,
    @JsonProperty("templates") List<ChartFile> templates,
    @JsonProperty("values") JsonNode values,
    @JsonProperty("schema") byte[] schema,
    @JsonProperty("schemamodtime") String schemaModTime,
    @JsonProperty("files") List<ChartFile> files,
    @JsonInclude(JsonInclude.Include.NON_NULL) @JsonProperty("modtime") String modTime) {

  /** Go's zero time, which Helm writes for a chart without a schema. */
  public static final String GO_ZERO_TIME = "0001-01-01T00:00:00Z";

  /** A chart of this metadata, templates and values, with no lock, schema or other files. */
  public static ReleaseChart of(JsonNode metadata, List<ChartFile> templates, JsonNode values) {
    return new ReleaseChart(metadata, null, templates, values, null, GO_ZERO_TIME, null, null);
  }

  /** Chart.yaml's {@code name}. */
  public String name() {
    return text("name");
  }

  /** Chart.yaml's {@code version}. */
  public String version() {
    return text("version");
  }

  /** Chart.yaml's {@code appVersion}, empty when the chart has none. */
  public String appVersion() {
    return text("appVersion");
  }

  private String text(String field) {
    return metadata == null ? "" : metadata.path(field).asText("");
  }
}
