package dev.capstan.api.helm;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import java.util.Map;

/**
 * One release record of a HelmRelease's {@code status.history}, as Flux writes it: which release
 * version, of which chart, with which values, and how it ended.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record ReleaseSnapshot(
    @JsonPropertyDescription("Version of how digest is computed.") String apiVersion,
    @Required @JsonPropertyDescription("Digest (sha256:<hex>) of the release record in storage.")
        String digest,
    @Required @JsonPropertyDescription("The release's name.") String name,
    @Required @JsonPropertyDescription("The namespace the release installs to.") String namespace,
    @Required @JsonPropertyDescription("The release record's version.") Integer version,
    @Required @JsonPropertyDescription("The record's status: deployed, superseded, failed, ...")
        String status,
    @JsonPropertyDescription("What made the record: install, upgrade, rollback, ...") String action,
    @Required @JsonPropertyDescription("The chart's name.") String chartName,
    @Required @JsonPropertyDescription("The chart's version.") String chartVersion,
    @JsonPropertyDescription("The chart's appVersion.") String appVersion,
    @Required @JsonPropertyDescription("Digest (sha256:<hex>) of the release's values.")
        String configDigest,
    @Required @JsonPropertyDescription("When the release was first deployed.") String firstDeployed,
    @Required @JsonPropertyDescription("When this version was deployed.") String lastDeployed,
    @JsonPropertyDescription("When the release was uninstalled.") String deleted,
    @JsonPropertyDescription("The Helm tests run for this version, by name.")
        Map<String, TestHookStatus> testHooks,
    @JsonPropertyDescription("Digest of the OCI artifact the chart came from.") String ociDigest) {

  /** This snapshot with its record's status {@code status} (deployed, superseded, ...). */
  public ReleaseSnapshot withStatus(String status) {
    return with(status, testHooks, ociDigest);
  }

  /** This snapshot with the Helm tests run for its version (none: null). */
  public ReleaseSnapshot withTestHooks(Map<String, TestHookStatus> testHooks) {
    return with(status, testHooks == null || testHooks.isEmpty() ? null : testHooks, ociDigest);
  }

  /** This snapshot with the digest of the OCI artifact its chart came from. */
  public ReleaseSnapshot withOciDigest(String ociDigest) {
    return with(status, testHooks, ociDigest);
  }

  private ReleaseSnapshot with(
      String status, Map<String, TestHookStatus> testHooks, String ociDigest) {
    return new ReleaseSnapshot(
        apiVersion,
        digest,
        name,
        namespace,
        version,
        status,
        action,
        chartName,
        chartVersion,
        appVersion,
        configDigest,
        firstDeployed,
        lastDeployed,
        deleted,
        testHooks,
        ociDigest);
  }

  /**
   * This snapshot written again over {@code replaced}: when that one is of the same version, it
   * keeps what only that one knew, the tests run and the OCI artifact's digest, where this has
   * none.
   */
  public ReleaseSnapshot keeping(ReleaseSnapshot replaced) {
    if (replaced == null || version == null || !version.equals(replaced.version())) {
      return this;
    }
    ReleaseSnapshot kept = testHooks == null ? withTestHooks(replaced.testHooks()) : this;
    return ociDigest == null ? kept.withOciDigest(replaced.ociDigest()) : kept;
  }

  /** One Helm test's run. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record TestHookStatus(
      @JsonPropertyDescription("When the test started.") String lastStarted,
      @JsonPropertyDescription("When the test completed.") String lastCompleted,
      @JsonPropertyDescription("Succeeded or Failed.") String phase) {}
}
