package dev.capstan.applier.build;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.snakeyaml.engine.v2.api.Dump;
import org.snakeyaml.engine.v2.api.DumpSettings;
import org.snakeyaml.engine.v2.common.FlowStyle;
import org.snakeyaml.engine.v2.common.ScalarStyle;
import org.snakeyaml.engine.v2.nodes.Tag;
import org.snakeyaml.engine.v2.representer.StandardRepresenter;
import org.snakeyaml.engine.v2.resolver.ScalarResolver;

/**
 * Writes objects as multi-document YAML the way {@code kubectl kustomize} does: block style, keys
 * sorted, multi-line strings as literal blocks, and strings quoted wherever a YAML 1.1 reader would
 * otherwise see a number, boolean or date.
 */
public final class ManifestYaml {
  private final DumpSettings settings =
      DumpSettings.builder()
          .setDefaultFlowStyle(FlowStyle.BLOCK)
          .setIndent(2)
          .setIndicatorIndent(0)
          .setWidth(Integer.MAX_VALUE)
          .setSplitLines(false)
          .setSchema(new Yaml11SafeSchema())
          .build();
  private final ObjectMapper mapper;

  public ManifestYaml() {
    this(new ObjectMapper());
  }

  ManifestYaml(ObjectMapper mapper) {
    this.mapper = mapper;
  }

  /** The objects separated by {@code ---} lines; empty text for no objects. */
  public String write(List<GenericKubernetesResource> objects) {
    List<String> documents = new ArrayList<>();
    for (GenericKubernetesResource object : objects) {
      @SuppressWarnings("unchecked")
      Map<String, Object> map = mapper.convertValue(object, Map.class);
      documents.add(writeObject(map));
    }
    return String.join("---\n", documents);
  }

  String writeObject(Map<String, Object> object) {
    return writeObject(object, value -> false);
  }

  /** Writes one object; strings {@code quoted} accepts are always double-quoted. */
  String writeObject(Map<String, Object> object, Predicate<String> quoted) {
    return new Dump(settings, new LiteralBlocks(settings, quoted)).dumpToString(sorted(object));
  }

  private static Object sorted(Object value) {
    if (value instanceof Map<?, ?> map) {
      Map<String, Object> copy = new TreeMap<>();
      map.forEach((k, v) -> copy.put(String.valueOf(k), sorted(v)));
      return copy;
    }
    if (value instanceof List<?> list) {
      return list.stream().map(ManifestYaml::sorted).toList();
    }
    return value;
  }

  /** Multi-line strings read best as {@code |} blocks, as kubectl prints them. */
  private static final class LiteralBlocks extends StandardRepresenter {
    LiteralBlocks(DumpSettings settings, Predicate<String> quoted) {
      super(settings);
      ScalarResolver resolver = settings.getSchema().getScalarResolver();
      this.representers.put(
          String.class,
          data -> {
            String text = (String) data;
            ScalarStyle style = quoted.test(text) ? ScalarStyle.DOUBLE_QUOTED : style(text, resolver);
            return representScalar(Tag.STR, text, style);
          });
    }

    /** Strings that look like numbers or booleans get double quotes, as kubectl writes them. */
    private static ScalarStyle style(String text, ScalarResolver resolver) {
      if (text.contains("\n") && !text.endsWith(" ") && !text.contains(" \n")) {
        return ScalarStyle.LITERAL;
      }
      return Tag.STR.equals(resolver.resolve(text, true)) ? ScalarStyle.PLAIN : ScalarStyle.DOUBLE_QUOTED;
    }
  }
}
