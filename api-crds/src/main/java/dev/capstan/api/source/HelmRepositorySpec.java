package dev.capstan.api.source;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.capstan.api.common.GoDuration;
import dev.capstan.api.common.LocalObjectReference;
import dev.capstan.api.common.ReconciledSpec;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;

/** The desired state of a HelmRepository; field names and meaning follow Flux's v1 API. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record HelmRepositorySpec(
    @Required
        @Pattern("^(http|https|oci)://.*$")
        @JsonPropertyDescription(
            "The repository: http(s)://<host>/<path> (its index.yaml is read) or, with type oci, "
                + "oci://<host>/<path>.")
        String url,
    @JsonPropertyDescription(
            "Secret with username and password: basic authentication to the repository.")
        LocalObjectReference secretRef,
    @JsonPropertyDescription(
            "Secret with ca.crt (the repository's CA) and/or tls.crt and tls.key (a client "
                + "certificate), PEM-encoded.")
        LocalObjectReference certSecretRef,
    @JsonPropertyDescription(
            "Send secretRef's credentials to hosts other than the repository's too (chart URLs "
                + "of the index on another host).")
        Boolean passCredentials,
    @Pattern(GoDuration.PATTERN)
        @JsonPropertyDescription("How often the index is checked for changes; defaults to 1m.")
        String interval,
    @JsonPropertyDescription(
            "Allow plain HTTP: for type oci to the registry; for an index, credentials sent "
                + "over plain HTTP.")
        Boolean insecure,
    @Pattern(GoDuration.PATTERN)
        @JsonPropertyDescription("Timeout of one index download; defaults to 60s.")
        String timeout,
    @JsonPropertyDescription("Stop checking this repository.") Boolean suspend,
    @JsonPropertyDescription(
            "Namespaces allowed to refer to this repository (accepted, not enforced, as in Flux).")
        AccessFrom accessFrom,
    @Pattern("^(default|oci)$")
        @JsonPropertyDescription(
            "default (an HTTP(S) index.yaml) or oci (a chart registry); defaults to default.")
        String type,
    @Default("generic")
        @JsonPropertyDescription(
            "Who provides credentials: generic (secretRef) is the only one this engine "
                + "supports; aws, azure and gcp are refused.")
        HelmRepositorySpec.Provider provider)
    implements ReconciledSpec {

  /** The value of {@code type} for an OCI chart registry. */
  public static final String TYPE_OCI = "oci";

  /** Flux's providers of credentials; the constants are the API's values. */
  public enum Provider {
    generic,
    aws,
    azure,
    gcp
  }

  /** Whether the repository is an OCI chart registry rather than an index. */
  public boolean oci() {
    return TYPE_OCI.equals(type);
  }

  /** {@code insecure}, false when absent. */
  public boolean insecureAllowed() {
    return Boolean.TRUE.equals(insecure);
  }

  /** {@code passCredentials}, false when absent. */
  public boolean credentialsPassed() {
    return Boolean.TRUE.equals(passCredentials);
  }

  /** {@code provider}, generic when absent. */
  public Provider effectiveProvider() {
    return provider == null ? Provider.generic : provider;
  }
}
