package dev.capstan.engine.helmrelease;

import dev.capstan.api.helm.HelmReleaseSpec.PostRenderStrategy;
import dev.capstan.api.kustomize.CommonMetadata;
import dev.capstan.kube.BoundedYaml;
import dev.capstan.kustomize.chart.ChartRender;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.snakeyaml.engine.v2.api.DumpSettings;
import org.snakeyaml.engine.v2.api.lowlevel.Present;
import org.snakeyaml.engine.v2.api.lowlevel.Serialize;
import org.snakeyaml.engine.v2.common.FlowStyle;
import org.snakeyaml.engine.v2.common.ScalarStyle;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.Tag;
import org.snakeyaml.engine.v2.schema.CoreSchema;

/**
 * {@code spec.commonMetadata} as Flux's helm-controller applies it: a post-renderer after the
 * user's {@code postRenderers}, which sets its labels and annotations on the metadata of every
 * rendered object (over a value the chart or a patch gave the same key), in the manifest the
 * release record keeps and so in what is applied. Hooks get them too, unless the post-render
 * strategy leaves hooks out ({@code nohooks}). Without commonMetadata the render is left as it is.
 *
 * <p>Only the metadata's {@code labels} and {@code annotations} nodes are replaced, in the node
 * tree the document was written as: every other scalar keeps its text and style (a number is never
 * re-typed, so {@code 9007199254740993}, {@code 1.0} or {@code 0o17} stay as written), and a
 * mapping shared through an alias is copied, not changed where it is shared.
 */
final class CommonMetadataRender {
  private CommonMetadataRender() {}

  /** A rendered document that is not YAML; the message never quotes it. */
  static final class NotYaml extends Exception {
    NotYaml(String message) {
      super(message);
    }
  }

  // The tags the composer resolved are the ones the writer must find implicit: the same schema.
  private static final DumpSettings WRITE =
      DumpSettings.builder()
          .setSchema(new CoreSchema())
          .setWidth(Integer.MAX_VALUE)
          .setSplitLines(false)
          .setDefaultFlowStyle(FlowStyle.BLOCK)
          .build();

  /**
   * The render with {@code common} set on each object.
   *
   * @throws NotYaml when a rendered document is not YAML
   */
  static ChartRender apply(ChartRender render, CommonMetadata common, PostRenderStrategy strategy)
      throws NotYaml {
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
  static String manifest(String manifest, CommonMetadata common) throws NotYaml {
    List<Node> documents;
    try {
      documents = new BoundedYaml(50L * ManifestObjects.MAX_OBJECTS * 100).composeAll(manifest);
    } catch (BoundedYaml.YamlProblem e) {
      throw new NotYaml(
          "the rendered manifest is not YAML at document " + e.document() + ", line " + e.line());
    }
    StringBuilder out = new StringBuilder(manifest.length() + 256);
    for (Node document : documents) {
      if (document instanceof MappingNode object) {
        object.setValue(withField(object, "metadata", metadata(object, common)));
        out.append("---\n").append(write(object));
      }
    }
    return out.toString();
  }

  private static Node metadata(MappingNode object, CommonMetadata common) {
    MappingNode metadata = mapping(value(object, "metadata"));
    MappingNode out = new MappingNode(Tag.MAP, metadata.getValue(), FlowStyle.BLOCK);
    out = merged(out, "labels", common.labels());
    return merged(out, "annotations", common.annotations());
  }

  /** {@code metadata} with {@code field} a new mapping: what it held, then {@code add} over it. */
  private static MappingNode merged(MappingNode metadata, String field, Map<String, String> add) {
    if (add == null || add.isEmpty()) {
      return metadata;
    }
    MappingNode present = mapping(value(metadata, field));
    MappingNode merged = new MappingNode(Tag.MAP, present.getValue(), FlowStyle.BLOCK);
    for (Map.Entry<String, String> e : add.entrySet()) {
      merged.setValue(withField(merged, e.getKey(), string(e.getValue())));
    }
    return new MappingNode(Tag.MAP, withField(metadata, field, merged), FlowStyle.BLOCK);
  }

  /** A copy of the mapping's entries with {@code key} set to {@code value} (kept in its place). */
  private static List<NodeTuple> withField(MappingNode mapping, String key, Node value) {
    List<NodeTuple> out = new ArrayList<>();
    boolean set = false;
    for (NodeTuple t : mapping.getValue()) {
      if (isKey(t, key)) {
        if (!set) {
          out.add(new NodeTuple(t.getKeyNode(), value));
        }
        set = true;
      } else {
        out.add(t);
      }
    }
    if (!set) {
      out.add(new NodeTuple(string(key), value));
    }
    return out;
  }

  private static Optional<Node> value(MappingNode mapping, String key) {
    return mapping.getValue().stream()
        .filter(t -> isKey(t, key))
        .map(NodeTuple::getValueNode)
        .findFirst();
  }

  private static MappingNode mapping(Optional<Node> node) {
    return node.filter(MappingNode.class::isInstance)
        .map(MappingNode.class::cast)
        .orElseGet(() -> new MappingNode(Tag.MAP, List.of(), FlowStyle.BLOCK));
  }

  private static boolean isKey(NodeTuple t, String key) {
    return t.getKeyNode() instanceof ScalarNode s && s.getValue().equals(key);
  }

  private static ScalarNode string(String value) {
    return new ScalarNode(Tag.STR, value, ScalarStyle.PLAIN);
  }

  private static String write(Node document) {
    return new Present(WRITE).emitToString(new Serialize(WRITE).serializeOne(document).iterator());
  }
}
