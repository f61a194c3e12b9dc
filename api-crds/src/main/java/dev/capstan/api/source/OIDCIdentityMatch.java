package dev.capstan.api.source;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** An identity a keyless signature's certificate must name, as Flux's field has it. */
@JsonIgnoreProperties(ignoreUnknown = true)
public record OIDCIdentityMatch(
    @JsonPropertyDescription("Regular expression the OIDC issuer must match.") String issuer,
    @JsonPropertyDescription("Regular expression the identity's subject must match.")
        String subject) {}
