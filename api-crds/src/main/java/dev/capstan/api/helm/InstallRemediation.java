package dev.capstan.api.helm;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** What is done about a failed install: retried, then uninstalled. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record InstallRemediation(
    @JsonPropertyDescription(
            "How many times a failed install is retried before giving up; a negative number"
                + " retries forever. Defaults to 0.")
        Integer retries,
    @JsonPropertyDescription("Skip remediation when only the Helm tests failed.")
        Boolean ignoreTestFailures,
    @JsonPropertyDescription(
            "Uninstall after the last failure too, when no retries remain. Defaults to false.")
        Boolean remediateLastFailure) {

  /** {@code retries}, 0 when absent. */
  public int effectiveRetries() {
    return retries == null ? 0 : retries;
  }

  /** {@code remediateLastFailure}, false when absent. */
  public boolean remediatesLastFailure() {
    return Boolean.TRUE.equals(remediateLastFailure);
  }
}
