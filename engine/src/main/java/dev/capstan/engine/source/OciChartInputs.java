package dev.capstan.engine.source;

import dev.capstan.api.source.HelmChart;
import dev.capstan.api.source.HelmChartSpec;
import dev.capstan.api.source.HelmRepository;
import dev.capstan.api.source.HelmRepositorySpec;
import dev.capstan.engine.pipeline.SourceFetch;
import dev.capstan.source.core.FailureReason;
import dev.capstan.source.helm.ChartVersions;
import dev.capstan.source.helm.OciChartRequest;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The pull a HelmChart whose source is a HelmRepository of type {@code oci} asks of source-helm's
 * {@code OciChartSource}: the repository's URL, {@code secretRef} (registry credentials), {@code
 * certSecretRef}, {@code insecure} and {@code timeout}, and the chart's name, version range, {@code
 * valuesFiles} (merged as for a chart of an index, the generation in the version) and {@code
 * verify} (its public keys, or a keyless check's trusted root, read from the chart's namespace;
 * what an OCIRepository's verification refuses is refused here by the same words).
 */
final class OciChartInputs {
  private OciChartInputs() {}

  static OciChartRequest of(
      KubernetesClient client,
      HelmChart chart,
      HelmRepository repo,
      String key,
      Optional<Duration> timeout) {
    HelmChartSpec spec = chart.getSpec();
    HelmRepositorySpec repoSpec = repo.getSpec();
    SpecSecrets secrets = new SpecSecrets(client, repo);
    Map<String, byte[]> pull =
        secrets.readIfNamed(
            repoSpec.secretRef(), "spec.secretRef", FailureReason.AUTHENTICATION_FAILED);
    OciChartRequest request =
        OciChartRequest.of(key, repoSpec.url(), spec.chart(), spec.effectiveVersion())
            .withInsecure(repoSpec.insecureAllowed())
            .withPullSecrets(pull == null ? List.of() : List.of(pull))
            .withCertSecret(
                secrets.readIfNamed(
                    repoSpec.certSecretRef(),
                    "spec.certSecretRef",
                    FailureReason.AUTHENTICATION_FAILED))
            .withValuesFiles(spec.allValuesFiles())
            .withIgnoreMissingValuesFiles(spec.missingValuesFilesIgnored())
            .withVersionMetadata(ChartVersions.metadata(null, generation(chart)));
    if (timeout.isPresent()) {
      request = request.withTimeout(timeout.get());
    }
    if (spec.verify() == null) {
      return request;
    }
    OciRequests.refuseUnsupported(spec.verify());
    SpecSecrets chartSecrets = new SpecSecrets(client, chart);
    if (spec.verify().secretRef() == null) {
      return request.withVerify(
          OciChartRequest.Verify.keyless(OciRequests.keyless(chartSecrets, spec.verify())));
    }
    Map<String, byte[]> keys =
        chartSecrets.read(
            spec.verify().secretRef().name(),
            "spec.verify.secretRef",
            FailureReason.VERIFICATION_FAILED);
    return request.withVerify(OciChartRequest.Verify.cosign(keys));
  }

  /** As for a chart of an index (Flux's rule): the generation when values files are merged. */
  private static Long generation(HelmChart chart) {
    return chart.getSpec().allValuesFiles().isEmpty() ? null : SourceFetch.generation(chart);
  }
}
