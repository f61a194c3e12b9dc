package dev.capstan.api.source;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.capstan.api.common.GoDuration;
import dev.capstan.api.common.LocalObjectReference;
import dev.capstan.api.common.ReconciledSpec;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;

/** The desired state of an OCIRepository; field names and meaning follow Flux's v1 API. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record OCIRepositorySpec(
    @Required
        @Pattern(OCIRepositorySpec.URL_PATTERN)
        @JsonPropertyDescription(
            "The repository: oci://<host>[:<port>]/<name>, without a tag or digest.")
        String url,
    @JsonPropertyDescription(
            "The tag, semver range or digest to pull; defaults to the tag 'latest'.")
        OCIRepositoryRef ref,
    @JsonPropertyDescription(
            "Which layer becomes the artifact; defaults to the first layer, extracted.")
        OCILayerSelector layerSelector,
    @Pattern("^(generic|aws|azure|gcp)$")
        @JsonPropertyDescription(
            "Who provides credentials: generic (secretRef, serviceAccountName) is the only one "
                + "this engine supports; aws, azure and gcp are refused.")
        String provider,
    @JsonPropertyDescription(
            "Secret of type kubernetes.io/dockerconfigjson with the registry's credentials.")
        LocalObjectReference secretRef,
    @JsonPropertyDescription(
            "Verify the artifact's cosign signature with the public keys (*.pub) of a Secret.")
        OCIRepositoryVerification verify,
    @JsonPropertyDescription(
            "ServiceAccount in this namespace whose imagePullSecrets hold the registry's "
                + "credentials.")
        String serviceAccountName,
    @JsonPropertyDescription(
            "Secret with ca.crt (the registry's CA) and/or tls.crt and tls.key (a client "
                + "certificate), PEM-encoded.")
        LocalObjectReference certSecretRef,
    @JsonPropertyDescription(
            "Secret with the HTTP(S) proxy to pull through: address, and optionally username "
                + "and password.")
        LocalObjectReference proxySecretRef,
    @Required
        @Pattern(GoDuration.PATTERN)
        @JsonPropertyDescription("How often the registry is checked for a new digest, e.g. 5m.")
        String interval,
    @Pattern(GoDuration.PATTERN) @JsonPropertyDescription("Timeout of one pull; defaults to 60s.")
        String timeout,
    @JsonPropertyDescription(
            "Ignore rules in .gitignore syntax, applied to the extracted layer; replace the "
                + "default exclusions.")
        String ignore,
    @JsonPropertyDescription(
            "Allow plain HTTP to the registry (and, without certSecretRef, an https registry "
                + "whose certificate is not checked).")
        Boolean insecure,
    @JsonPropertyDescription("Stop pulling this repository.") Boolean suspend)
    implements ReconciledSpec {

  /** Flux's pattern for {@code spec.url}. */
  public static final String URL_PATTERN = "^oci://.*$";

  /** {@code insecure}, false when absent. */
  public boolean insecureAllowed() {
    return Boolean.TRUE.equals(insecure);
  }
}
