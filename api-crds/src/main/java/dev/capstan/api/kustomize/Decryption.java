package dev.capstan.api.kustomize;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.capstan.api.common.LocalObjectReference;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

/** How SOPS-encrypted files and Secrets of the source are decrypted before they are applied. */
@JsonIgnoreProperties(ignoreUnknown = true)
public record Decryption(
    @Required @JsonPropertyDescription("The decryption provider; sops is the only one.")
        Provider provider,
    @JsonPropertyDescription(
            "Secret in the Kustomization's namespace that holds the private keys: age identities in"
                + " entries ending in .agekey, armored OpenPGP private keys in entries ending in"
                + " .asc.")
        LocalObjectReference secretRef,
    @Size(max = 253)
        @JsonPropertyDescription(
            "Service account to authenticate to a cloud KMS with. Capstan decrypts with the keys"
                + " of secretRef (or the engine's --sops-age-secret) only, so a Kustomization that"
                + " sets it is refused (InvalidSpec), as Flux refuses it without its"
                + " ObjectLevelWorkloadIdentity feature gate.")
        String serviceAccountName) {

  /** The decryption providers. */
  public enum Provider {
    sops
  }
}
