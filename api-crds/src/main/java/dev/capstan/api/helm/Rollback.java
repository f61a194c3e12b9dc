package dev.capstan.api.helm;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.capstan.api.common.GoDuration;
import io.fabric8.generator.annotation.Pattern;
import java.time.Duration;

/** How a release is rolled back (Flux's Rollback). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record Rollback(
    @Pattern(GoDuration.PATTERN)
        @JsonPropertyDescription("Time for each operation; spec.timeout when absent.")
        String timeout,
    @JsonPropertyDescription("Do not wait for the objects to become ready.") Boolean disableWait,
    @JsonPropertyDescription("Do not wait for Jobs to complete.") Boolean disableWaitForJobs,
    @JsonPropertyDescription("Do not run the chart's hooks.") Boolean disableHooks,
    @JsonPropertyDescription("Deprecated in Helm; accepted.") Boolean recreate,
    @JsonPropertyDescription("Replace objects whose changes cannot be applied.") Boolean force,
    @JsonPropertyDescription("Delete objects this rollback made when it fails.")
        Boolean cleanupOnFail,
    @JsonPropertyDescription("enabled, disabled or auto (the default).")
        ServerSideApplyMode serverSideApply) {

  /** A rollback with every default. */
  public static final Rollback DEFAULTS =
      new Rollback(null, null, null, null, null, null, null, null);

  /** Whether a rollback runs the chart's rollback hooks: not with {@code disableHooks}. */
  public boolean runsHooks() {
    return !Boolean.TRUE.equals(disableHooks);
  }

  /** {@code timeout}, {@code otherwise} (the release's {@code spec.timeout}) when absent. */
  public Duration effectiveTimeout(Duration otherwise) {
    return timeout == null || timeout.isEmpty() ? otherwise : GoDuration.parse(timeout);
  }
}
