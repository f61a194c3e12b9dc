package dev.capstan.api.source;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.Map;
import java.util.Optional;

/**
 * The last fetched tree: its revision, the digest of its content and where it is stored; for an
 * ExternalArtifact, where its producer serves it.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record Artifact(
    @JsonPropertyDescription(
            "Branch, tag or ref name and commit (main@sha1:<commit>), or an OCI tag and manifest "
                + "digest (latest@sha256:<digest>).")
        String revision,
    @JsonPropertyDescription(
            "sha256 digest of the artifact's content (of the tar+gzip file at url for an "
                + "ExternalArtifact).")
        String digest,
    @JsonPropertyDescription("Where the engine stores the artifact.") String path,
    @JsonPropertyDescription("When this revision was first stored.") String lastUpdateTime,
    @JsonPropertyDescription(
            "HTTP address of the artifact's tar+gzip file (ExternalArtifact); the engine's own "
                + "sources leave it out.")
        String url,
    @JsonPropertyDescription("Size of the file at url in bytes.") Long size,
    @JsonPropertyDescription(
            "What the source knows of where the artifact came from, e.g. an OCI artifact's"
                + " annotations (org.opencontainers.image.source, org.opencontainers.image.revision"
                + " is its origin revision).")
        Map<String, String> metadata) {

  /** The metadata key of the revision an artifact was built from (Flux's, from OCI). */
  public static final String ORIGIN_REVISION = "org.opencontainers.image.revision";

  /** An artifact without metadata (a Git artifact has none). */
  public Artifact(String revision, String digest, String path, String lastUpdateTime) {
    this(revision, digest, path, lastUpdateTime, null, null, null);
  }

  /** The revision of the source code this artifact was built from, when the source records it. */
  public Optional<String> originRevision() {
    return Optional.ofNullable(metadata).map(m -> m.get(ORIGIN_REVISION)).filter(r -> !r.isEmpty());
  }
}
