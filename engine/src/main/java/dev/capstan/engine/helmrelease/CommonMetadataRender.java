package dev.capstan.engine.helmrelease;

import dev.capstan.api.helm.HelmReleaseSpec.PostRenderStrategy;
import dev.capstan.api.kustomize.CommonMetadata;
import dev.capstan.kube.BoundedYaml;
import dev.capstan.kustomize.chart.ChartRender;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code spec.commonMetadata} as Flux's helm-controller applies it: a post-renderer after the
 * user's {@code postRenderers}, which sets its labels and annotations on the metadata of every
 * rendered object (over a value the chart or a patch gave the same key), in the manifest the
 * release record keeps and so in what is applied. Hooks get them too, unless the post-render
 * strategy leaves hooks out ({@code nohooks}). Without commonMetadata the render is left as it is.
 */
final class CommonMetadataRender {
  private CommonMetadataRender() {}

  /**
   * The render with {@code common} set on each object.
   *
   * @throws IllegalArgumentException when a rendered document is not YAML (never quoting it)
   */
  static ChartRender apply(ChartRender render, CommonMetadata common, PostRenderStrategy strategy) {
    if (RenderDigests.isEmpty(common)) {
      return render;
    }
    List<ChartRender.Hook> hooks = render.hooks();
    if (strategy != PostRenderStrategy.nohooks) {
      hooks = new ArrayList<>();
      for (ChartRender.Hook h : render.hooks()) {
        hooks.add(
            new ChartRender.Hook(
                h.path(),
                h.kind(),
                h.name(),
                h.events(),
                h.weight(),
                h.deletePolicies(),
                h.outputLogPolicies(),
                manifest(h.manifest(), common)));
      }
    }
    return new ChartRender(
        render.chart(), manifest(render.manifest(), common), hooks, render.notes());
  }

  /** Each document of {@code manifest} with {@code common} set; empty documents dropped. */
  static String manifest(String manifest, CommonMetadata common) {
    List<BoundedYaml.Document> documents;
    try {
      documents = new BoundedYaml(50L * ManifestObjects.MAX_OBJECTS * 100).readAll(manifest);
    } catch (BoundedYaml.YamlProblem e) {
      throw new IllegalArgumentException("the rendered manifest is not YAML: " + e.getMessage());
    }
    StringBuilder out = new StringBuilder(manifest.length() + 256);
    for (BoundedYaml.Document document : documents) {
      if (document.value() instanceof Map<?, ?> object) {
        out.append("---\n").append(GoYaml.write(withMetadata(object, common)));
      }
    }
    return out.toString();
  }

  private static Map<String, Object> withMetadata(Map<?, ?> object, CommonMetadata common) {
    Map<String, Object> copy = new LinkedHashMap<>();
    object.forEach((k, v) -> copy.put(String.valueOf(k), v));
    Map<String, Object> metadata = new LinkedHashMap<>();
    if (copy.get("metadata") instanceof Map<?, ?> meta) {
      meta.forEach((k, v) -> metadata.put(String.valueOf(k), v));
    }
    merge(metadata, "labels", common.labels());
    merge(metadata, "annotations", common.annotations());
    copy.put("metadata", metadata);
    return copy;
  }

  private static void merge(Map<String, Object> metadata, String field, Map<String, String> add) {
    if (add == null || add.isEmpty()) {
      return;
    }
    Map<String, Object> merged = new LinkedHashMap<>();
    if (metadata.get(field) instanceof Map<?, ?> present) {
      present.forEach((k, v) -> merged.put(String.valueOf(k), v));
    }
    merged.putAll(add);
    metadata.put(field, merged);
  }
}
