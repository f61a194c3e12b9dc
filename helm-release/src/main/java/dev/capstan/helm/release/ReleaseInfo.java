package dev.capstan.helm.release;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.soabase.recordbuilder.core.RecordBuilder;

/**
 * A release record's {@code info}: when the release was first and last deployed (and deleted), how
 * it ended, its description and the chart's rendered NOTES.txt. Times are as Helm writes them
 * ({@link HelmTime}); absent ones are left out, as Helm leaves zero times out.
 */
@RecordBuilder
@JsonInclude(JsonInclude.Include.NON_EMPTY)
@JsonIgnoreProperties(ignoreUnknown = true)
public record ReleaseInfo(
    @JsonProperty("first_deployed") String firstDeployed,
    @JsonProperty("last_deployed") String lastDeployed,
    @JsonProperty("deleted") String deleted,
    @JsonProperty("description") String description,
    @JsonProperty("status") ReleaseStatus status,
    @JsonProperty("notes") String notes)
    implements ReleaseInfoBuilder.With {}
