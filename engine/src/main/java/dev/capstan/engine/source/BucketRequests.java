package dev.capstan.engine.source;

import dev.capstan.api.source.Bucket;
import dev.capstan.api.source.BucketSpec;
import dev.capstan.source.bucket.BucketRequest;
import dev.capstan.source.core.FailureReason;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * The fetch a Bucket's spec asks for, with the data of the Secrets it names: {@code secretRef}
 * ({@code accesskey}, {@code secretkey}), {@code certSecretRef} (TLS) and {@code proxySecretRef}.
 * What this engine does not implement (a provider other than generic, {@code sts}, {@code
 * serviceAccountName}) is refused by name before anything is read.
 */
final class BucketRequests {
  private BucketRequests() {}

  static BucketRequest of(
      KubernetesClient client, Bucket bucket, String key, Optional<Duration> timeout) {
    BucketSpec spec = bucket.getSpec();
    refuseUnsupported(spec);
    SpecSecrets secrets = new SpecSecrets(client, bucket);
    Map<String, byte[]> credentials =
        secrets.readIfNamed(
            spec.secretRef(), "spec.secretRef", FailureReason.AUTHENTICATION_FAILED);
    Map<String, byte[]> certs =
        secrets.readIfNamed(
            spec.certSecretRef(), "spec.certSecretRef", FailureReason.AUTHENTICATION_FAILED);
    Map<String, byte[]> proxy =
        secrets.readIfNamed(
            spec.proxySecretRef(), "spec.proxySecretRef", FailureReason.AUTHENTICATION_FAILED);
    BucketRequest request =
        BucketRequest.of(key, spec.endpoint(), spec.bucketName())
            .withRegion(spec.region())
            .withPrefix(spec.prefix())
            .withIgnore(spec.ignore())
            .withCredentials(credentials)
            .withCertSecret(certs)
            .withProxy(proxy)
            .withInsecure(spec.insecureAllowed());
    return timeout.map(request::withTimeout).orElse(request);
  }

  static void refuseUnsupported(BucketSpec spec) {
    if (spec.effectiveProvider() != BucketSpec.Provider.generic) {
      throw invalid(
          "spec.provider '"
              + spec.effectiveProvider()
              + "' is not supported: this engine fetches S3-compatible buckets only; use "
              + "'generic' with spec.secretRef");
    }
    if (spec.sts() != null) {
      throw invalid("spec.sts is not supported: use spec.secretRef with static credentials");
    }
    if (spec.serviceAccountName() != null && !spec.serviceAccountName().isEmpty()) {
      throw invalid("spec.serviceAccountName is not supported: this engine has no cloud identity");
    }
  }

  private static SourceInputs.Unavailable invalid(String message) {
    return new SourceInputs.Unavailable(FailureReason.INVALID_SPEC, message);
  }
}
