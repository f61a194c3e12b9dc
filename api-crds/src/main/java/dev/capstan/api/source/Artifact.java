package dev.capstan.api.source;

import com.fasterxml.jackson.annotation.JsonInclude;

/** The last fetched tree: its revision, the digest of its content and where it is stored. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Artifact(String revision, String digest, String path, String lastUpdateTime) {}
