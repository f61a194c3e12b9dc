package dev.capstan.api.helm;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.databind.JsonNode;
import dev.capstan.api.common.GoDuration;
import dev.capstan.api.common.ReconciledSpec;
import dev.capstan.api.kustomize.CommonMetadata;
import dev.capstan.api.kustomize.DriftDetection;
import dev.capstan.api.kustomize.HealthCheckExpression;
import dev.capstan.api.kustomize.KubeConfigReference;
import io.fabric8.crd.generator.annotation.PreserveUnknownFields;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import java.time.Duration;
import java.util.List;

/** The desired state of a HelmRelease; field names and meaning follow Flux's v2 API. */
@ValidationRule(
    value = "has(self.chart) != has(self.chartRef)",
    message = "either chart or chartRef must be set")
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record HelmReleaseSpec(
    @JsonPropertyDescription(
            "Template of the HelmChart the engine makes for this release, named"
                + " <namespace>-<name> in the source's namespace. Exactly one of chart and"
                + " chartRef.")
        HelmChartTemplate chart,
    @JsonPropertyDescription("An OCIRepository or HelmChart whose artifact is the chart.")
        ChartReference chartRef,
    @Required
        @Pattern(GoDuration.PATTERN)
        @JsonPropertyDescription("How often the release is reconciled, e.g. 10m.")
        String interval,
    @JsonPropertyDescription(
            "Install to a remote cluster instead of the engine's own: a kubeconfig Secret"
                + " (secretRef) or a ConfigMap for token access (configMapRef).")
        KubeConfigReference kubeConfig,
    @JsonPropertyDescription("Stop reconciling this release.") Boolean suspend,
    @Size(min = 1, max = HelmRelease.MAX_RELEASE_NAME)
        @JsonPropertyDescription("The Helm release's name; defaults to [targetNamespace-]name.")
        String releaseName,
    @Size(min = 1, max = 63)
        @JsonPropertyDescription("Namespace of the chart's objects; defaults to the HelmRelease's.")
        String targetNamespace,
    @Size(min = 1, max = 63)
        @JsonPropertyDescription(
            "Namespace of the release records (Helm's Secrets); defaults to the HelmRelease's.")
        String storageNamespace,
    @Size(max = 100)
        @JsonPropertyDescription(
            "HelmReleases, or other objects, that must be ready before this one is installed.")
        List<HelmReleaseDependency> dependsOn,
    @Pattern(GoDuration.PATTERN)
        @JsonPropertyDescription(
            "Time for each Kubernetes operation of a Helm action (such as a hook's Job);"
                + " defaults to 5m.")
        String timeout,
    @Min(0)
        @JsonPropertyDescription(
            "How many release records are kept; 0 for no limit; defaults to 5.")
        Integer maxHistory,
    @Size(min = 1, max = 253)
        @JsonPropertyDescription("Service account to impersonate when installing.")
        String serviceAccountName,
    @JsonPropertyDescription("Accepted as Flux has it; the engine's clients are always kept.")
        Boolean persistentClient,
    @JsonPropertyDescription(
            "Whether objects changed in the cluster by another writer are corrected (enabled),"
                + " only reported (warn) or not looked at (disabled, the default), and which"
                + " fields are left out.")
        HelmReleaseDriftDetection driftDetection,
    @JsonPropertyDescription("How a release is installed.") Install install,
    @JsonPropertyDescription("How a release is upgraded.") Upgrade upgrade,
    @JsonPropertyDescription("Helm tests run after an install or upgrade.") ReleaseTest test,
    @JsonPropertyDescription("How a release is rolled back.") Rollback rollback,
    @JsonPropertyDescription("How a release is uninstalled.") Uninstall uninstall,
    @JsonPropertyDescription(
            "ConfigMaps and Secrets whose values are merged, in order, over the chart's.")
        List<ValuesReference> valuesFrom,
    @PreserveUnknownFields
        @JsonPropertyDescription("Values merged over the chart's and valuesFrom's.")
        JsonNode values,
    @JsonPropertyDescription(
            "What of the hooks the post-renderers see: combined (the default), nohooks or"
                + " separate.")
        PostRenderStrategy postRenderStrategy,
    @JsonPropertyDescription("kustomize post-renderers, applied in order to the rendered chart.")
        List<PostRenderer> postRenderers,
    @JsonPropertyDescription("Labels and annotations added to every object of the release.")
        CommonMetadata commonMetadata,
    @JsonPropertyDescription("CEL health checks for custom resources, by apiVersion and kind.")
        List<HealthCheckExpression> healthCheckExprs,
    @JsonPropertyDescription("How the objects are waited for: poller (the default) or legacy.")
        WaitStrategy waitStrategy)
    implements ReconciledSpec {

  /** Helm's default timeout of a release action. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(5);

  /** Helm's and Flux's default number of kept release records. */
  public static final int DEFAULT_MAX_HISTORY = 5;

  /**
   * This spec with another release name, target namespace and storage namespace: where a release
   * made under an earlier spec is, for acting on that release.
   */
  public HelmReleaseSpec withTarget(
      String releaseName, String targetNamespace, String storageNamespace) {
    return new HelmReleaseSpec(
        chart,
        chartRef,
        interval,
        kubeConfig,
        suspend,
        releaseName,
        targetNamespace,
        storageNamespace,
        dependsOn,
        timeout,
        maxHistory,
        serviceAccountName,
        persistentClient,
        driftDetection,
        install,
        upgrade,
        test,
        rollback,
        uninstall,
        valuesFrom,
        values,
        postRenderStrategy,
        postRenderers,
        commonMetadata,
        healthCheckExprs,
        waitStrategy);
  }

  /** {@code timeout}, 5m when absent. */
  public Duration effectiveTimeout() {
    return timeout == null ? DEFAULT_TIMEOUT : GoDuration.parse(timeout);
  }

  /** {@code maxHistory}, 5 when absent; 0 keeps every record. */
  public int effectiveMaxHistory() {
    return maxHistory == null ? DEFAULT_MAX_HISTORY : maxHistory;
  }

  /** {@code install}, its defaults when absent. */
  public Install effectiveInstall() {
    return install == null ? Install.DEFAULTS : install;
  }

  /** {@code upgrade}, its defaults when absent. */
  public Upgrade effectiveUpgrade() {
    return upgrade == null ? Upgrade.DEFAULTS : upgrade;
  }

  /** {@code rollback}, its defaults when absent. */
  public Rollback effectiveRollback() {
    return rollback == null ? Rollback.DEFAULTS : rollback;
  }

  /** {@code uninstall}, its defaults when absent. */
  public Uninstall effectiveUninstall() {
    return uninstall == null ? Uninstall.DEFAULTS : uninstall;
  }

  /** Whether Helm tests run: {@code test.enable}, false when absent. */
  public boolean testsEnabled() {
    return test != null && Boolean.TRUE.equals(test.enable());
  }

  /** The drift detection mode, disabled when absent (as in Flux's HelmRelease). */
  public DriftDetection.Mode driftDetectionMode() {
    return driftDetection == null || driftDetection.mode() == null
        ? DriftDetection.Mode.disabled
        : driftDetection.mode();
  }

  /** {@code postRenderStrategy}, combined when absent. */
  public PostRenderStrategy effectivePostRenderStrategy() {
    return postRenderStrategy == null ? PostRenderStrategy.combined : postRenderStrategy;
  }

  /** {@code valuesFrom}, empty when absent. */
  public List<ValuesReference> valuesReferences() {
    return valuesFrom == null ? List.of() : valuesFrom;
  }

  /** {@code postRenderers}, empty when absent. */
  public List<PostRenderer> allPostRenderers() {
    return postRenderers == null ? List.of() : postRenderers;
  }

  /** {@code dependsOn}, empty when absent. */
  public List<HelmReleaseDependency> dependencies() {
    return dependsOn == null ? List.of() : dependsOn;
  }

  /** Flux's post-render strategies; the constants are the API's values. */
  public enum PostRenderStrategy {
    nohooks,
    combined,
    separate
  }

  /** Helm's wait strategy; the API's {@code waitStrategy}. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record WaitStrategy(@Required @JsonPropertyDescription("poller or legacy.") Name name) {

    /** The strategies; the constants are the API's values. */
    public enum Name {
      poller,
      legacy
    }
  }
}
