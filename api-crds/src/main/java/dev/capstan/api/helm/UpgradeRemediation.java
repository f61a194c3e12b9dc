package dev.capstan.api.helm;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** What is done about a failed upgrade: retried, then rolled back or uninstalled. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record UpgradeRemediation(
    @JsonPropertyDescription(
            "How many times a failed upgrade is retried before giving up; a negative number"
                + " retries forever. Defaults to 0.")
        Integer retries,
    @JsonPropertyDescription("Skip remediation when only the Helm tests failed.")
        Boolean ignoreTestFailures,
    @JsonPropertyDescription(
            "Remediate the last failure too, when no retries remain. Defaults to false, or to"
                + " true when retries is more than 0.")
        Boolean remediateLastFailure,
    @JsonPropertyDescription("rollback (the default) or uninstall.") Strategy strategy) {

  /** The remediations of a failed upgrade; the constants are the API's values. */
  public enum Strategy {
    rollback,
    uninstall
  }

  /** {@code retries}, 0 when absent. */
  public int effectiveRetries() {
    return retries == null ? 0 : retries;
  }

  /** {@code remediateLastFailure}, else whether retries is more than 0, as in Flux. */
  public boolean remediatesLastFailure() {
    return remediateLastFailure == null ? effectiveRetries() > 0 : remediateLastFailure;
  }

  /** {@code strategy}, rollback when absent. */
  public Strategy effectiveStrategy() {
    return strategy == null ? Strategy.rollback : strategy;
  }
}
