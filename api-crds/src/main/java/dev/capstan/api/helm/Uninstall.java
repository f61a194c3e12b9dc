package dev.capstan.api.helm;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.capstan.api.common.GoDuration;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Pattern;
import java.time.Duration;

/** How a release is uninstalled (Flux's Uninstall). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record Uninstall(
    @Pattern(GoDuration.PATTERN)
        @JsonPropertyDescription("Time for each operation; spec.timeout when absent.")
        String timeout,
    @JsonPropertyDescription("Do not run the chart's hooks.") Boolean disableHooks,
    @JsonPropertyDescription("Keep the release records, marked uninstalled.") Boolean keepHistory,
    @JsonPropertyDescription("Do not wait for the objects to be gone.") Boolean disableWait,
    @Default("background")
        @JsonPropertyDescription("background (the default), foreground or orphan.")
        DeletionPropagation deletionPropagation) {

  /** An uninstall with every default. */
  public static final Uninstall DEFAULTS = new Uninstall(null, null, null, null, null);

  /** The deletion propagation policies; the constants are the API's values. */
  public enum DeletionPropagation {
    background,
    foreground,
    orphan
  }

  /** Whether an uninstall runs the chart's delete hooks: not with {@code disableHooks}. */
  public boolean runsHooks() {
    return !Boolean.TRUE.equals(disableHooks);
  }

  /** {@code timeout}, {@code otherwise} (the release's {@code spec.timeout}) when absent. */
  public Duration effectiveTimeout(Duration otherwise) {
    return timeout == null || timeout.isEmpty() ? otherwise : GoDuration.parse(timeout);
  }

  /** {@code deletionPropagation}, background when absent. */
  public DeletionPropagation effectiveDeletionPropagation() {
    return deletionPropagation == null ? DeletionPropagation.background : deletionPropagation;
  }
}
