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
                + "Required here: keyless verification needs the public Sigstore services.")
        LocalObjectReference secretRef,
    @JsonPropertyDescription(
            "Keyless identities (issuer and subject regular expressions); not supported by "
                + "this engine.")
        List<OIDCIdentityMatch> matchOIDCIdentity,
    @JsonPropertyDescription(
            "Secret in this namespace holding a Sigstore trusted root for keyless verification; "
                + "accepted as Flux's API has it and refused at reconcile, as keyless "
                + "verification is.")
        LocalObjectReference trustedRootSecretRef) {

  /** The provider, cosign when absent. */
  public String effectiveProvider() {
    return provider == null || provider.isEmpty() ? "cosign" : provider;
  }
}
