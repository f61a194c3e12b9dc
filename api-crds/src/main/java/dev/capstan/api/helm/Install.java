package dev.capstan.api.helm;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.capstan.api.common.GoDuration;
import io.fabric8.generator.annotation.Pattern;

/** How a release is installed (Flux's Install). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record Install(
    @Pattern(GoDuration.PATTERN)
        @JsonPropertyDescription(
            "Time for each operation of the install; spec.timeout when absent.")
        String timeout,
    @JsonPropertyDescription("What a failed install is followed by.")
        InstallRemediation remediation,
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
    @JsonPropertyDescription("Reuse the name of a release that was uninstalled with its history.")
        Boolean replace,
    @JsonPropertyDescription("Deprecated: crds: Skip.") Boolean skipCRDs,
    @JsonPropertyDescription(
            "The CRDs of the chart's crds directory: Skip, Create (the default)"
                + " or CreateReplace.")
        CrdsPolicy crds,
    @JsonPropertyDescription("Create the target namespace when it does not exist.")
        Boolean createNamespace,
    @JsonPropertyDescription("Apply server-side; the engine always does.")
        Boolean serverSideApply) {

  /** An install with every default. */
  public static final Install DEFAULTS =
      new Install(
          null, null, null, null, null, null, null, null, null, null, null, null, null, null);

  /** The CRDs policy: {@code crds}, Skip when {@code skipCRDs}, else Create. */
  public CrdsPolicy effectiveCrds() {
    if (crds != null) {
      return crds;
    }
    return Boolean.TRUE.equals(skipCRDs) ? CrdsPolicy.Skip : CrdsPolicy.Create;
  }

  /** {@code remediation}, its defaults when absent. */
  public InstallRemediation effectiveRemediation() {
    return remediation == null ? new InstallRemediation(null, null, null) : remediation;
  }
}
