package dev.capstan.api.source;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** What of an OCI repository is pulled; the digest wins over semver, semver over the tag. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record OCIRepositoryRef(
    @JsonPropertyDescription("The manifest digest to pull, sha256:<hex>; wins over semver and tag.")
        String digest,
    @JsonPropertyDescription("A semver range: the highest tag within it is pulled.") String semver,
    @JsonPropertyDescription("A regular expression a tag must match to be considered for semver.")
        String semverFilter,
    @JsonPropertyDescription("The tag to pull; 'latest' when nothing else is given.") String tag) {}
