package dev.capstan.kustomize.chart;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Objects;

/**
 * One of Flux's {@code spec.postRenderers}: its {@code kustomize} section, applied by kustomize in
 * the chart worker, within Helm's render, to what Helm rendered (see {@link PostRenderStrategy} for
 * the hooks), after the post-renderers before it. Flux's own origin labels are not added.
 *
 * @param patches strategic merge or JSON 6902 patches, each with its target
 * @param images image names, tags or digests to change
 */
public record ChartPostRenderer(List<Patch> patches, List<Image> images) {

  public ChartPostRenderer {
    patches = patches == null ? List.of() : List.copyOf(patches);
    images = images == null ? List.of() : List.copyOf(images);
  }

  /**
   * A patch: a strategic merge patch (YAML) or a JSON 6902 patch (a JSON or YAML list).
   *
   * @param target which objects it applies to; null for the objects its text names
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Patch(String patch, Target target) {
    public Patch {
      Objects.requireNonNull(patch, "patch");
    }
  }

  /** A patch's target, as kustomize selects; a null field selects any. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Target(
      String group,
      String version,
      String kind,
      String name,
      String namespace,
      String labelSelector,
      String annotationSelector) {}

  /** Containers whose image is {@code name} get the new name, tag or digest. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Image(String name, String newName, String newTag, String digest) {
    public Image {
      Objects.requireNonNull(name, "name");
    }
  }
}
