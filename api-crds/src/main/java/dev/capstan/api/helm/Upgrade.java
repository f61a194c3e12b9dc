package dev.capstan.api.helm;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.capstan.api.common.GoDuration;
import io.fabric8.generator.annotation.Pattern;

/** How a release is upgraded (Flux's Upgrade). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record Upgrade(
    @Pattern(GoDuration.PATTERN)
        @JsonPropertyDescription(
            "Time for each operation of the upgrade; spec.timeout when absent.")
        String timeout,
    @JsonPropertyDescription("What a failed upgrade is followed by.")
        UpgradeRemediation remediation,
    @JsonPropertyDescription("RemediateOnFailure (the default) or RetryOnFailure.")
        ActionStrategy strategy,
    @JsonPropertyDescription("Do not wait for the objects to become ready.") Boolean disableWait,
    @JsonPropertyDescription("Do not wait for Jobs to complete.") Boolean disableWaitForJobs,
    @JsonPropertyDescription("Do not run the chart's hooks.") Boolean disableHooks,
    @JsonPropertyDescription("Do not validate the rendered objects against the API's schema.")
        Boolean disableOpenAPIValidation,
    @JsonPropertyDescription("Do not validate the values against the chart's JSON schema.")
        Boolean disableSchemaValidation,
    @JsonPropertyDescription("Do not take over objects that exist and no release owns.")
        Boolean disableTakeOwnership,
    @JsonPropertyDescription("Replace objects whose changes cannot be applied.") Boolean force,
    @JsonPropertyDescription("Reuse the last release's values, with values merged over them.")
        Boolean preserveValues,
    @JsonPropertyDescription("Delete objects this upgrade made when it fails.")
        Boolean cleanupOnFail,
    @JsonPropertyDescription(
            "The CRDs of the chart's crds directory: Skip (the default), Create"
                + " or CreateReplace.")
        CrdsPolicy crds,
    @JsonPropertyDescription(
            "enabled, disabled or auto (the default); the engine always applies" + " server-side.")
        ServerSideApplyMode serverSideApply,
    @JsonPropertyDescription(
            "When the chart's name changes: Reinstall (the default) or InPlaceUpdate.")
        ChartNameChangeStrategy chartNameChangeStrategy) {

  /** An upgrade with every default. */
  public static final Upgrade DEFAULTS =
      new Upgrade(
          null, null, null, null, null, null, null, null, null, null, null, null, null, null, null);

  /** What is done when the chart's name changes; the constants are the API's values. */
  public enum ChartNameChangeStrategy {
    InPlaceUpdate,
    Reinstall
  }

  /** The CRDs policy, Skip when absent. */
  public CrdsPolicy effectiveCrds() {
    return crds == null ? CrdsPolicy.Skip : crds;
  }

  /** {@code remediation}, its defaults when absent. */
  public UpgradeRemediation effectiveRemediation() {
    return remediation == null ? new UpgradeRemediation(null, null, null, null) : remediation;
  }
}
