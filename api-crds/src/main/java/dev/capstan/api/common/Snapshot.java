package dev.capstan.api.common;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.Map;

/**
 * One entry of a status history (Flux's {@code meta.Snapshot}): the reconciles of one applied set
 * that ended the same way, counted, with when the first and the last of them ended.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record Snapshot(
    @JsonPropertyDescription("Digest (sha256:<hex>) of the set of objects these reconciles built.")
        String digest,
    @JsonPropertyDescription("When the first of these reconciles ended.") String firstReconciled,
    @JsonPropertyDescription("When the last of these reconciles ended.") String lastReconciled,
    @JsonPropertyDescription("How long the last of these reconciles took, e.g. 2.5s.")
        String lastReconciledDuration,
    @JsonPropertyDescription(
            "How the last of these reconciles ended: the reason of its Ready condition, e.g."
                + " ReconciliationSucceeded or HealthCheckFailed.")
        String lastReconciledStatus,
    @JsonPropertyDescription("How many reconciles of this set ended this way.")
        Long totalReconciliations,
    @JsonPropertyDescription(
            "What was reconciled: revision (the source's), and originRevision when the source"
                + " artifact names one.")
        Map<String, String> metadata) {}
