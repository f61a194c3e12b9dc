package dev.capstan.engine.source;

import dev.capstan.api.source.HelmChart;
import dev.capstan.api.source.HelmChartSpec;
import dev.capstan.api.source.HelmRepository;
import dev.capstan.api.source.HelmRepositorySpec;
import dev.capstan.source.core.FailureReason;
import dev.capstan.source.helm.OciChartRequest;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The pull a HelmChart whose source is a HelmRepository of type {@code oci} asks of source-helm's
 * {@code OciChartSource}: the repository's URL, {@code secretRef} (registry credentials), {@code
 * certSecretRef}, {@code insecure} and {@code timeout}, and the chart's name, version range and
 * {@code verify} (its public keys, or a keyless check's trusted root, read from the chart's
 * namespace; what an OCIRepository's verification refuses is refused here by the same words).
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
    if (!spec.allValuesFiles().isEmpty()) {
      // Refused rather than ignored: the chart would otherwise be stored with its own values.
      throw new SourceInputs.Unavailable(
          FailureReason.INVALID_SPEC,
          "spec.valuesFiles are not merged into a chart of an OCI repository by this engine yet;"
              + " give the values to the release instead");
    }
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
                    FailureReason.AUTHENTICATION_FAILED));
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
}
