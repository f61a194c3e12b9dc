package dev.capstan.engine.helmrelease;

import java.util.Map;
import org.snakeyaml.engine.v2.api.ConstructNode;
import org.snakeyaml.engine.v2.constructor.ConstructScalar;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.Tag;
import org.snakeyaml.engine.v2.resolver.ScalarResolver;
import org.snakeyaml.engine.v2.schema.Schema;

/**
 * Plain scalars typed as Helm reads a values file (yaml.v2, YAML 1.1): {@code yes}, {@code on},
 * {@code NO} are booleans, {@code 0x1F}, {@code 017} and {@code 1_000} integers; a quoted scalar is
 * a string. Values read by YAML 1.2's core schema would render a chart otherwise than Helm.
 */
final class HelmYamlSchema implements Schema {

  @Override
  public ScalarResolver getScalarResolver() {
    return (value, implicit) -> Boolean.TRUE.equals(implicit) ? tagOf(value) : Tag.STR;
  }

  @Override
  public Map<Tag, ConstructNode> getSchemaTagConstructors() {
    ConstructNode plain = new Plain();
    return Map.of(Tag.NULL, plain, Tag.BOOL, plain, Tag.INT, plain, Tag.FLOAT, plain);
  }

  private static Tag tagOf(String value) {
    Object typed = GoYamlScalars.valueOfPlain(value);
    if (typed == null) {
      return Tag.NULL;
    }
    if (typed instanceof Boolean) {
      return Tag.BOOL;
    }
    if (typed instanceof Double) {
      return Tag.FLOAT;
    }
    return typed instanceof String ? Tag.STR : Tag.INT;
  }

  /** A null, boolean or number, typed again from its text. */
  private static final class Plain extends ConstructScalar {
    @Override
    public Object construct(Node node) {
      return GoYamlScalars.valueOfPlain(constructScalar(node));
    }
  }
}
