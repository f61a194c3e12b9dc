package dev.capstan.api.source;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/**
 * Which Git reference to fetch; the most specific field given wins (commit, name, semver, tag,
 * branch).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record GitRepositoryRef(
    @JsonPropertyDescription("Branch to follow.") String branch,
    @JsonPropertyDescription("Tag to fetch.") String tag,
    @JsonPropertyDescription("Semver range over tags; the highest match is fetched.") String semver,
    @JsonPropertyDescription("Any reference name, e.g. refs/pull/1/head.") String name,
    @JsonPropertyDescription("Exact commit SHA; with branch, the commit must be on it.")
        String commit) {}
