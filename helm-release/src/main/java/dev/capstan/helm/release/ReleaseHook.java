package dev.capstan.helm.release;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * A hook of a release record, as Helm stores it: the rendered object apart from the manifest, the
 * events it runs on, its weight and delete policies, and how its last run went.
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
@JsonIgnoreProperties(ignoreUnknown = true)
public record ReleaseHook(
    @JsonProperty("name") String name,
    @JsonProperty("kind") String kind,
    @JsonProperty("path") String path,
    @JsonProperty("manifest") String manifest,
    @JsonProperty("events") List<String> events,
    @JsonInclude(JsonInclude.Include.ALWAYS) @JsonProperty("last_run") Execution lastRun,
    @JsonInclude(JsonInclude.Include.NON_DEFAULT) @JsonProperty("weight") int weight,
    @JsonProperty("delete_policies") List<String> deletePolicies,
    @JsonProperty("output_log_policies") List<String> outputLogPolicies) {

  /** A list Helm left out of the record (it omits empty ones) reads as empty. */
  public ReleaseHook {
    events = events == null ? List.of() : List.copyOf(events);
    deletePolicies = deletePolicies == null ? List.of() : List.copyOf(deletePolicies);
    outputLogPolicies = outputLogPolicies == null ? List.of() : List.copyOf(outputLogPolicies);
  }

  /** How a hook's last run went; Helm writes the phase always, empty before any run. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Execution(
      @JsonInclude(JsonInclude.Include.NON_EMPTY) @JsonProperty("started_at") String startedAt,
      @JsonInclude(JsonInclude.Include.NON_EMPTY) @JsonProperty("completed_at") String completedAt,
      @JsonProperty("phase") String phase) {

    /** A hook that has not run. */
    public static final Execution NEVER = new Execution(null, null, "");
  }
}
