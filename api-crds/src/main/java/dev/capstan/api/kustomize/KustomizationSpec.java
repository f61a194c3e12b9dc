package dev.capstan.api.kustomize;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.capstan.api.common.GoDuration;
import dev.capstan.api.common.ReconciledSpec;
import io.fabric8.crd.generator.annotation.PrinterColumn;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import java.util.List;

/** The desired state of a Kustomization; field names and meaning follow Flux's v1 API. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record KustomizationSpec(
    @Required @JsonPropertyDescription("The source to build from.") SourceReference sourceRef,
    @Size(max = 4096)
        @JsonPropertyDescription("Path to the directory in the source; defaults to its root.")
        String path,
    @Required
        @Pattern(GoDuration.PATTERN)
        @JsonPropertyDescription("How often the Kustomization is reconciled, e.g. 10m.")
        String interval,
    @Pattern(GoDuration.PATTERN)
        @JsonPropertyDescription("How soon a failed reconcile is retried; defaults to interval.")
        String retryInterval,
    @Pattern(GoDuration.PATTERN)
        @JsonPropertyDescription("Timeout for apply and health checks; defaults to interval.")
        String timeout,
    @Required
        @JsonPropertyDescription(
            "Delete objects that were applied before and are gone from the source.")
        Boolean prune,
    // "wait" cannot name a record component (it is a method of Object), so it is renamed here.
    @JsonProperty("wait")
        @JsonPropertyDescription("Wait for every applied object to become healthy.")
        Boolean waitForAll,
    @JsonPropertyDescription("Recreate objects whose immutable fields changed.") Boolean force,
    @PrinterColumn(name = "SUSPENDED", priority = 1)
        @JsonPropertyDescription("Stop reconciling this Kustomization.")
        Boolean suspend,
    @JsonPropertyDescription("Objects to wait for when wait is false.")
        List<HealthCheckReference> healthChecks,
    @JsonPropertyDescription("CEL health checks for custom resources, by apiVersion and kind.")
        List<HealthCheckExpression> healthCheckExprs,
    @Size(max = 100)
        @JsonPropertyDescription(
            "Kustomizations, or other objects, that must be ready before this one is applied.")
        List<DependencyReference> dependsOn,
    @Size(min = 1, max = 63) @JsonPropertyDescription("Namespace set on every namespaced object.")
        String targetNamespace,
    @Size(min = 1, max = 200) @JsonPropertyDescription("Prefix added to the name of every object.")
        String namePrefix,
    @Size(min = 1, max = 200) @JsonPropertyDescription("Suffix added to the name of every object.")
        String nameSuffix,
    CommonMetadata commonMetadata,
    List<Patch> patches,
    List<Image> images,
    @Size(max = 100)
        @JsonPropertyDescription("Components (paths relative to path) added to the kustomization.")
        List<String> components,
    @JsonPropertyDescription("Leave out components whose directory does not exist.")
        Boolean ignoreMissingComponents,
    @Size(max = 10)
        @JsonPropertyDescription(
            "kustomize build metadata added to every object: originAnnotations"
                + " (config.kubernetes.io/origin, the file it came from), transformerAnnotations"
                + " (the transformers that changed it). Replaces the buildMetadata of the path's"
                + " kustomization.")
        List<BuildMetadataOption> buildMetadata,
    PostBuild postBuild,
    @JsonPropertyDescription(
            "Decrypt SOPS-encrypted Secrets of the build output and the files that "
                + "secretGenerators read, with the keys of a Secret.")
        Decryption decryption,
    @Size(max = 253)
        @JsonPropertyDescription(
            "Service account to impersonate when applying; with kubeConfig, the service account of"
                + " the Kustomization's namespace in the remote cluster.")
        String serviceAccountName,
    @JsonPropertyDescription("What happens to applied objects when this Kustomization is deleted.")
        DeletionPolicy deletionPolicy,
    @JsonPropertyDescription(
            "Apply to a remote cluster instead of the engine's own: a kubeconfig Secret (secretRef)"
                + " or a ConfigMap for token access (configMapRef); exactly one of them.")
        KubeConfigReference kubeConfig,
    @Size(max = 100)
        @JsonPropertyDescription(
            "Fields left out of drift detection and of the apply: JSON Pointer paths, for the"
                + " objects an optional target selects. An ignored field another Apply manager"
                + " owns is not sent; one only this engine applies keeps its value in the"
                + " cluster.")
        List<IgnoreRule> ignore,
    @JsonPropertyDescription(
            "Whether objects changed in the cluster by another writer are applied again"
                + " (mode: enabled, the default), only reported (warn) or not looked at"
                + " (disabled).")
        DriftDetection driftDetection)
    implements ReconciledSpec {

  /** {@code prune}, false when absent. */
  public boolean pruneEnabled() {
    return Boolean.TRUE.equals(prune);
  }

  /** {@code wait}, false when absent. */
  public boolean waitEnabled() {
    return Boolean.TRUE.equals(waitForAll);
  }

  /** {@code force}, false when absent. */
  public boolean forceEnabled() {
    return Boolean.TRUE.equals(force);
  }

  /** {@code ignoreMissingComponents}, false when absent. */
  public boolean ignoresMissingComponents() {
    return Boolean.TRUE.equals(ignoreMissingComponents);
  }

  /** {@code buildMetadata}, empty when absent. */
  public List<BuildMetadataOption> buildMetadataOptions() {
    return buildMetadata == null ? List.of() : buildMetadata;
  }

  /** The drift detection mode, enabled when absent. */
  public DriftDetection.Mode driftDetectionMode() {
    return DriftDetection.modeOf(driftDetection);
  }

  /** The deletion policy, MirrorPrune when absent. */
  public DeletionPolicy effectiveDeletionPolicy() {
    return deletionPolicy == null ? DeletionPolicy.MirrorPrune : deletionPolicy;
  }
}
