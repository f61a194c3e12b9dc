package dev.capstan.helm.release;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import io.soabase.recordbuilder.core.RecordBuilder;
import java.util.List;

/**
 * One version of a Helm release, as Helm's release JSON holds it: its name and namespace, version,
 * {@link ReleaseInfo}, the {@link ReleaseChart}, the user's values ({@code config}), the rendered
 * manifest (without hooks or CRDs) and the hooks, and how it was applied ({@code ssa} or {@code
 * csa}).
 */
@RecordBuilder
@JsonInclude(JsonInclude.Include.NON_EMPTY)
@JsonIgnoreProperties(ignoreUnknown = true)
public record Release(
    @JsonProperty("name") String name,
    @JsonProperty("info") ReleaseInfo info,
    @JsonProperty("chart") ReleaseChart chart,
    @JsonProperty("config") JsonNode config,
    @JsonProperty("manifest") String manifest,
    @JsonProperty("hooks") List<ReleaseHook> hooks,
    @JsonProperty("version") int version,
    @JsonProperty("namespace") String namespace,
    @JsonProperty("apply_method") String applyMethod)
    implements ReleaseBuilder.With {

  /** How Helm names a release applied by server-side apply. */
  public static final String SERVER_SIDE_APPLY = "ssa";

  /** The status in {@code info}, unknown when it has none. */
  public ReleaseStatus status() {
    return info == null || info.status() == null ? ReleaseStatus.UNKNOWN : info.status();
  }

  /** This release with {@code info.status} set to {@code status}. */
  public Release withStatus(ReleaseStatus status) {
    ReleaseInfo current = info == null ? new ReleaseInfo(null, null, null, null, null, null) : info;
    return withInfo(current.withStatus(status));
  }
}
