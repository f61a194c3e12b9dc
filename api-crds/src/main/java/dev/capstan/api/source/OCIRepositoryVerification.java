package dev.capstan.api.source;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.capstan.api.common.LocalObjectReference;
import io.fabric8.generator.annotation.Pattern;
import java.util.List;

/** The signature an OCI artifact must carry before it becomes the artifact. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record OCIRepositoryVerification(
    @Pattern("^(cosign|notation)$")
        @JsonPropertyDescription(
            "cosign (the default) is supported; notation is refused by this engine.")
        String provider,
    @JsonPropertyDescription(
            "Secret in this namespace whose *.pub values are the trusted cosign public keys. "
                + "Without it the signature is verified keyless, which this engine does "
                + "offline against trustedRootSecretRef's root.")
        LocalObjectReference secretRef,
    @JsonPropertyDescription(
            "Keyless identities: regular expressions the certificate's OIDC issuer and "
                + "subject must match; any one entry matching suffices, and none means any "
                + "identity.")
        List<OIDCIdentityMatch> matchOIDCIdentity,
    @JsonPropertyDescription(
            "Secret in this namespace whose trusted_root.json (a Sigstore trusted root: "
                + "certificate authorities, transparency logs, CT logs) keyless signatures are "
                + "verified against, offline. Required here for keyless verification: this "
                + "engine does not fetch the public Sigstore root.")
        LocalObjectReference trustedRootSecretRef) {

  /** The provider, cosign when absent. */
  public String effectiveProvider() {
    return provider == null || provider.isEmpty() ? "cosign" : provider;
  }
}
