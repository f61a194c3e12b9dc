package dev.capstan.source.helm;

import dev.capstan.source.oci.KeylessPolicy;
import io.soabase.recordbuilder.core.RecordBuilder;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One pull of a HelmChart whose source is a HelmRepository of type {@code oci}.
 *
 * @param key the artifact store's key of the chart (e.g. {@code helmchart/ns/name})
 * @param repositoryUrl the repository's {@code oci://host/path}; the chart is {@code <url>/<chart>}
 * @param chart {@code spec.chart}, one path segment
 * @param version {@code spec.version}, a semver range; {@code *} when null or empty
 * @param insecure the repository's {@code insecure}: plain http allowed
 * @param pullSecrets the repository's {@code secretRef} data (Docker config JSON, or {@code
 *     username} and {@code password} as Flux reads a HelmRepository's Secret)
 * @param certSecret the repository's {@code certSecretRef} data; empty when none
 * @param verify {@code spec.verify}; empty when the chart is not verified
 * @param timeout the repository's {@code timeout}; 60 seconds when null
 * @param valuesFiles {@code spec.valuesFiles}, files of the chart merged in order into its
 *     values.yaml; empty for none
 * @param ignoreMissingValuesFiles leave out a missing values file instead of failing
 * @param versionMetadata what the stored chart's version gets after a {@code +} (Flux's rule: the
 *     HelmChart's generation when values files are merged); null for none
 */
@RecordBuilder
public record OciChartRequest(
    String key,
    String repositoryUrl,
    String chart,
    String version,
    boolean insecure,
    List<Map<String, byte[]>> pullSecrets,
    Map<String, byte[]> certSecret,
    Optional<Verify> verify,
    Duration timeout,
    List<String> valuesFiles,
    boolean ignoreMissingValuesFiles,
    String versionMetadata)
    implements OciChartRequestBuilder.With {

  static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

  /**
   * {@code spec.verify}.
   *
   * @param provider {@code cosign} (the default) or another, which is refused by name
   * @param publicKeys the data of {@code secretRef}; null when there is none (keyless)
   * @param keyless the trusted root and identities of a keyless signature; null with keys, and
   *     without either the verification is refused
   */
  public record Verify(String provider, Map<String, byte[]> publicKeys, KeylessPolicy keyless) {
    public Verify(String provider, Map<String, byte[]> publicKeys) {
      this(provider, publicKeys, null);
    }

    public static Verify cosign(Map<String, byte[]> publicKeys) {
      return new Verify("cosign", publicKeys);
    }

    public static Verify keyless(KeylessPolicy policy) {
      return new Verify("cosign", null, policy);
    }
  }

  public OciChartRequest {
    version = version == null || version.isBlank() ? "*" : version;
    pullSecrets = pullSecrets == null ? List.of() : List.copyOf(pullSecrets);
    certSecret = certSecret == null ? Map.of() : Map.copyOf(certSecret);
    verify = verify == null ? Optional.empty() : verify;
    timeout = timeout == null ? DEFAULT_TIMEOUT : timeout;
    valuesFiles = valuesFiles == null ? List.of() : List.copyOf(valuesFiles);
  }

  public static OciChartRequest of(String key, String repositoryUrl, String chart, String version) {
    return new OciChartRequest(
        key, repositoryUrl, chart, version, false, null, null, null, null, null, false, null);
  }

  public OciChartRequest withVerify(Verify verify) {
    return withVerify(Optional.of(verify));
  }

  /** What decides, beside the chart's digest, whether a stored chart still answers this pull. */
  String buildIdentity() {
    return String.join(
        "\n",
        String.join("\u0000", valuesFiles),
        String.valueOf(ignoreMissingValuesFiles),
        String.valueOf(versionMetadata));
  }

  /** The chart's own repository: {@code <url>/<chart>}. */
  String chartUrl() {
    String base = repositoryUrl.endsWith("/") ? repositoryUrl : repositoryUrl + "/";
    return base + chart;
  }
}
