package dev.capstan.api.helm;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.capstan.api.common.ReconciledStatus;
import dev.capstan.api.kustomize.Inventory;
import io.fabric8.generator.annotation.Size;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;

/** What Capstan observed at the last reconcile of a HelmRelease; Flux's v2 status fields. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record HelmReleaseStatus(
    Long observedGeneration,
    @JsonPropertyDescription("Ready, Released, Healthy, TestSuccess, Remediated, Drifted.")
        List<Condition> conditions,
    @JsonPropertyDescription("The last reconcile.capstan.dev/requestedAt value handled.")
        String lastHandledReconcileAt,
    @JsonPropertyDescription("The last force request handled.") String lastHandledForceAt,
    @JsonPropertyDescription("The last reset request handled.") String lastHandledResetAt,
    @JsonPropertyDescription("<namespace>/<name> of the HelmChart made for spec.chart.")
        String helmChart,
    @Size(min = 1, max = 63) @JsonPropertyDescription("Namespace of the current release's records.")
        String storageNamespace,
    @JsonPropertyDescription(
            "The release records, newest first, up to the last one that succeeded.")
        List<ReleaseSnapshot> history,
    @JsonPropertyDescription("The generation last attempted.") Long lastAttemptedGeneration,
    @JsonPropertyDescription("The chart version (or source revision) last attempted.")
        String lastAttemptedRevision,
    @JsonPropertyDescription("The digest of the OCI artifact last attempted.")
        String lastAttemptedRevisionDigest,
    @JsonPropertyDescription("Deprecated: SHA-1 of the values last attempted.")
        String lastAttemptedValuesChecksum,
    @JsonPropertyDescription("Digest (sha256:<hex>) of the values last attempted.")
        String lastAttemptedConfigDigest,
    @JsonPropertyDescription("install or upgrade.") ReleaseAction lastAttemptedReleaseAction,
    @JsonPropertyDescription("How long the last release action took.")
        String lastAttemptedReleaseActionDuration,
    @JsonPropertyDescription("Deprecated: the version of the last successful release.")
        Integer lastReleaseRevision,
    @JsonPropertyDescription("Failed reconciles of the current desired state.") Long failures,
    @JsonPropertyDescription("Failed installs of the current desired state.") Long installFailures,
    @JsonPropertyDescription("Failed upgrades of the current desired state.") Long upgradeFailures,
    @JsonPropertyDescription("Digest of spec.commonMetadata at the last success.")
        String observedCommonMetadataDigest,
    @JsonPropertyDescription("Digest of spec.postRenderers at the last success.")
        String observedPostRenderersDigest,
    @JsonPropertyDescription("The objects of the current release.") Inventory inventory)
    implements ReconciledStatus {

  /** The release actions a status records; the constants are the API's values. */
  public enum ReleaseAction {
    install,
    upgrade
  }

  /** The newest release record, or null when none was made. */
  public ReleaseSnapshot latest() {
    return history == null || history.isEmpty() ? null : history.get(0);
  }
}
