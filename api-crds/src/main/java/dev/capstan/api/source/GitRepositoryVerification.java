package dev.capstan.api.source;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.capstan.api.common.LocalObjectReference;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;

/**
 * Which signatures must verify before a revision becomes the artifact (Flux's {@code spec.verify}).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record GitRepositoryVerification(
    @Pattern(GitRepositoryVerification.MODE_PATTERN)
        @JsonPropertyDescription(
            "What is verified: HEAD (the commit, the default; 'head' is the same), Tag (the"
                + " annotated tag of ref.tag, ref.semver or a refs/tags/ ref.name), or TagAndHEAD"
                + " (both).")
        String mode,
    @Required
        @JsonPropertyDescription(
            "Secret in this namespace with the public keys of trusted signers: SSH public keys"
                + " (authorized_keys lines) under keys ending in .sshpub, ASCII-armored OpenPGP"
                + " public keys under the others (.asc by convention).")
        LocalObjectReference secretRef) {

  public static final String MODE_PATTERN = "^(HEAD|head|Tag|TagAndHEAD)$";
}
