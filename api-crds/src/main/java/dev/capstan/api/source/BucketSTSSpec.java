package dev.capstan.api.source;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.capstan.api.common.LocalObjectReference;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;

/**
 * A Security Token Service a Bucket's temporary credentials would come from (Flux's {@code
 * spec.sts}): accepted by the schema, refused at reconcile by name.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record BucketSTSSpec(
    @Required @JsonPropertyDescription("aws or ldap.") BucketSTSSpec.Provider provider,
    @Required
        @Pattern("^(http|https)://.*$")
        @JsonPropertyDescription("The HTTP/S endpoint of the Security Token Service.")
        String endpoint,
    @JsonPropertyDescription("Secret with username and password (ldap only).")
        LocalObjectReference secretRef,
    @JsonPropertyDescription("Secret with ca.crt and/or tls.crt and tls.key (ldap only).")
        LocalObjectReference certSecretRef) {

  /** Flux's Security Token Services; the constants are the API's values. */
  public enum Provider {
    aws,
    ldap
  }
}
