package dev.capstan.api.source;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** The last fetched tree: its revision, the digest of its content and where it is stored. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record Artifact(
    @JsonPropertyDescription("Branch, tag or ref name and commit, e.g. main@sha1:<commit>.")
        String revision,
    @JsonPropertyDescription("sha256 digest of the artifact's content.") String digest,
    @JsonPropertyDescription("Where the engine stores the artifact.") String path,
    @JsonPropertyDescription("When this revision was first stored.") String lastUpdateTime) {}
