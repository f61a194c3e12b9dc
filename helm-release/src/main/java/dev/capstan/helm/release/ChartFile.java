package dev.capstan.helm.release;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * A file of a stored chart (a template, or another file of the archive): its path in the chart and
 * its bytes, which the JSON carries in Base64 as Go writes bytes.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record ChartFile(
    @JsonProperty("name") String name,
    @JsonProperty("data") byte[] data,
    @JsonInclude(JsonInclude.Include.NON_NULL) @JsonProperty("modtime") String modTime) {

  /** A file with no modification time. */
  public static ChartFile of(String name, byte[] data) {
    return new ChartFile(name, data, null);
  }
}
