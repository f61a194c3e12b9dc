package dev.capstan.engine.source;

import dev.capstan.api.source.OCILayerSelector;
import dev.capstan.api.source.OCIRepository;
import dev.capstan.api.source.OCIRepositorySpec;
import dev.capstan.api.source.OCIRepositoryVerification;
import dev.capstan.api.source.OIDCIdentityMatch;
import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import dev.capstan.source.oci.KeylessPolicy;
import dev.capstan.source.oci.OciFetchRequest;
import dev.capstan.source.oci.OciRef;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The pull an OCIRepository's spec asks for, with the data of the Secrets it names: {@code
 * secretRef} and the {@code serviceAccountName}'s image pull secrets (registry credentials), {@code
 * certSecretRef}, {@code proxySecretRef}, and {@code verify.secretRef} (cosign keys) or {@code
 * verify.trustedRootSecretRef} (a keyless check's Sigstore trusted root). What this engine does not
 * support (cloud providers, notation, keyless verification against the public Sigstore root it
 * would fetch) is refused by name before anything is read.
 */
final class OciRequests {
  private OciRequests() {}

  /** At most this many image pull secrets of a service account are read. */
  static final int MAX_PULL_SECRETS = 20;

  static OciFetchRequest of(
      KubernetesClient client, OCIRepository repo, String key, Optional<Duration> timeout) {
    OCIRepositorySpec spec = repo.getSpec();
    refuseUnsupported(spec);
    var ref = spec.ref();
    OciRef ociRef =
        ref == null
            ? OciRef.latest()
            : new OciRef(ref.tag(), ref.semver(), ref.semverFilter(), ref.digest());
    OCILayerSelector layer = spec.layerSelector();
    SpecSecrets secrets = new SpecSecrets(client, repo);
    OciFetchRequest request =
        OciFetchRequest.of(key, spec.url(), ociRef)
            .withLayer(layer == null ? null : layer.mediaType(), layer != null && layer.copies())
            .withIgnore(spec.ignore())
            .withInsecure(spec.insecureAllowed())
            .withPullSecrets(pullSecrets(client, repo, secrets))
            .withCertSecret(
                secrets.readIfNamed(
                    spec.certSecretRef(),
                    "spec.certSecretRef",
                    FailureReason.AUTHENTICATION_FAILED))
            .withProxy(
                secrets.readIfNamed(
                    spec.proxySecretRef(),
                    "spec.proxySecretRef",
                    FailureReason.AUTHENTICATION_FAILED));
    if (timeout.isPresent()) {
      request = request.withTimeout(timeout.get());
    }
    if (spec.verify() == null) {
      return request;
    }
    if (spec.verify().secretRef() != null) {
      return request.withVerification(
          secrets.read(
              spec.verify().secretRef().name(),
              "spec.verify.secretRef",
              FailureReason.VERIFICATION_FAILED));
    }
    return request.withKeyless(keyless(secrets, spec.verify()));
  }

  /**
   * The keyless check of {@code verify} (which has no {@code secretRef}): the {@code
   * trusted_root.json} of its {@code trustedRootSecretRef} and its {@code matchOIDCIdentity}.
   */
  static KeylessPolicy keyless(SpecSecrets secrets, OCIRepositoryVerification verify) {
    Map<String, byte[]> root =
        secrets.read(
            verify.trustedRootSecretRef().name(),
            "spec.verify.trustedRootSecretRef",
            FailureReason.VERIFICATION_FAILED);
    List<KeylessPolicy.OidcIdentity> identities = new ArrayList<>();
    if (verify.matchOIDCIdentity() != null) {
      for (OIDCIdentityMatch match : verify.matchOIDCIdentity()) {
        identities.add(new KeylessPolicy.OidcIdentity(match.issuer(), match.subject()));
      }
    }
    try {
      return KeylessPolicy.of(root, identities);
    } catch (SourceException e) {
      throw new SourceInputs.Unavailable(
          e.reason(),
          "spec.verify.trustedRootSecretRef: Secret '"
              + verify.trustedRootSecretRef().name()
              + "': "
              + e.getMessage());
    }
  }

  private static void refuseUnsupported(OCIRepositorySpec spec) {
    if (spec.provider() != null && !spec.provider().equals("generic")) {
      throw new SourceInputs.Unavailable(
          FailureReason.INVALID_SPEC,
          "spec.provider '"
              + spec.provider()
              + "' is not supported: this engine has no cloud identity; use 'generic' with "
              + "spec.secretRef or spec.serviceAccountName");
    }
    if (spec.verify() != null) {
      refuseUnsupported(spec.verify());
    }
  }

  /**
   * A signature check this engine cannot do, refused by name: a provider other than cosign, and
   * keyless verification without a trusted root of its own (Flux then fetches the public Sigstore
   * root through TUF; this engine verifies offline only). HelmCharts of an OCI repository are
   * checked by the same words.
   */
  static void refuseUnsupported(OCIRepositoryVerification verify) {
    if (!verify.effectiveProvider().equals("cosign")) {
      throw new SourceInputs.Unavailable(
          FailureReason.INVALID_SPEC,
          "spec.verify.provider '"
              + verify.effectiveProvider()
              + "' is not supported: only cosign signatures are verified");
    }
    if (verify.secretRef() == null && verify.trustedRootSecretRef() == null) {
      throw new SourceInputs.Unavailable(
          FailureReason.INVALID_SPEC,
          "spec.verify needs secretRef, or for keyless verification trustedRootSecretRef: this "
              + "engine verifies keyless signatures offline against the trusted_root.json of a "
              + "Secret and does not fetch the public Sigstore root; put that root (or your own "
              + "Sigstore's) in a Secret and name it");
    }
  }

  /** secretRef first, then the service account's image pull secrets, as Flux orders them. */
  private static List<Map<String, byte[]>> pullSecrets(
      KubernetesClient client, OCIRepository repo, SpecSecrets read) {
    OCIRepositorySpec spec = repo.getSpec();
    String namespace = repo.getMetadata().getNamespace();
    List<Map<String, byte[]>> secrets = new ArrayList<>();
    if (spec.secretRef() != null) {
      secrets.add(
          read.read(
              spec.secretRef().name(), "spec.secretRef", FailureReason.AUTHENTICATION_FAILED));
    }
    if (spec.serviceAccountName() != null && !spec.serviceAccountName().isEmpty()) {
      ServiceAccount account =
          client.serviceAccounts().inNamespace(namespace).withName(spec.serviceAccountName()).get();
      if (account == null) {
        throw new SourceInputs.Unavailable(
            FailureReason.AUTHENTICATION_FAILED,
            "spec.serviceAccountName: service account '"
                + namespace
                + "/"
                + spec.serviceAccountName()
                + "' not found");
      }
      List<LocalObjectReference> refs =
          account.getImagePullSecrets() == null ? List.of() : account.getImagePullSecrets();
      for (LocalObjectReference ref : refs.stream().limit(MAX_PULL_SECRETS).toList()) {
        secrets.add(
            read.read(
                ref.getName(),
                "an image pull secret of service account '" + spec.serviceAccountName() + "'",
                FailureReason.AUTHENTICATION_FAILED));
      }
    }
    return secrets;
  }
}
