package dev.capstan.engine.source;

import dev.capstan.api.source.HelmRepository;
import dev.capstan.api.source.HelmRepositorySpec;
import dev.capstan.source.core.FailureReason;
import dev.capstan.source.helm.HelmIndexRequest;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * The index download a HelmRepository's spec asks for, with the data of the Secrets it names:
 * {@code secretRef} (basic authentication, and the TLS entries Flux still reads there) and {@code
 * certSecretRef} (TLS, taking precedence). A provider other than generic is refused by name before
 * anything is read.
 */
final class HelmRequests {
  private HelmRequests() {}

  static HelmIndexRequest of(
      KubernetesClient client, HelmRepository repo, String key, Optional<Duration> timeout) {
    HelmRepositorySpec spec = repo.getSpec();
    refuseUnsupported(spec);
    SpecSecrets secrets = new SpecSecrets(client, repo);
    Map<String, byte[]> credentials =
        secrets.readIfNamed(
            spec.secretRef(), "spec.secretRef", FailureReason.AUTHENTICATION_FAILED);
    Map<String, byte[]> certs =
        secrets.readIfNamed(
            spec.certSecretRef(), "spec.certSecretRef", FailureReason.AUTHENTICATION_FAILED);
    HelmIndexRequest request =
        HelmIndexRequest.of(key, spec.url())
            .withCredentials(credentials)
            .withCertSecret(certs != null ? certs : credentials)
            .withPassCredentials(spec.credentialsPassed())
            .withInsecure(spec.insecureAllowed());
    return timeout.map(request::withTimeout).orElse(request);
  }

  /** Cloud identities are not supported: refused by name, as OCIRepository's are. */
  static void refuseUnsupported(HelmRepositorySpec spec) {
    if (spec.effectiveProvider() != HelmRepositorySpec.Provider.generic) {
      throw new SourceInputs.Unavailable(
          FailureReason.INVALID_SPEC,
          "spec.provider '"
              + spec.effectiveProvider()
              + "' is not supported: this engine has no cloud identity; use 'generic' with "
              + "spec.secretRef");
    }
  }
}
