package dev.capstan.api.kustomize;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/**
 * What the engine does when an applied object was changed in the cluster by another writer, as
 * HelmRelease's {@code spec.driftDetection} names it.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record DriftDetection(
    @JsonPropertyDescription(
            "enabled (default): a changed or deleted object is applied again. warn: it is reported"
                + " in the Drifted condition and in events, and not written. disabled: an object"
                + " the engine applied in this form is not looked at again; only objects whose"
                + " desired state changed are applied.")
        Mode mode) {

  /** The modes; lower case as the API writes them. */
  public enum Mode {
    enabled,
    warn,
    disabled
  }

  /** The mode of a spec's {@code driftDetection}: enabled when it or its mode is absent. */
  public static Mode modeOf(DriftDetection detection) {
    return detection == null || detection.mode() == null ? Mode.enabled : detection.mode();
  }
}
