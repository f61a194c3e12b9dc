package dev.capstan.health.cel;

import dev.capstan.health.status.ObjectView;
import dev.capstan.kube.BoundedYaml;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Reads a YAML (or JSON) list of entries in the {@code healthCheckExprs} schema. */
public final class HealthCheckExprsYaml {
  private static final Set<String> FIELDS =
      Set.of("apiVersion", "kind", "current", "inProgress", "failed");

  private final BoundedYaml yaml = new BoundedYaml();

  /**
   * Parses the list; every entry must be an object whose fields are strings from the schema.
   *
   * @param source names the input in error messages (a file name)
   * @throws InvalidHealthCheckException naming the source, the entry and the problem
   */
  public List<HealthCheckExpr> parse(String source, String text) {
    Object root;
    try {
      root = text.isBlank() ? List.of() : yaml.readOne(text);
    } catch (BoundedYaml.YamlProblem e) {
      throw new InvalidHealthCheckException(
          source
              + ": not valid YAML: "
              + e.problem()
              + (e.line() > 0 ? " (line " + e.line() + ", column " + e.column() + ")" : ""));
    }
    if (root == null) {
      return List.of();
    }
    if (!(root instanceof List<?> list)) {
      throw new InvalidHealthCheckException(
          source + ": expected a list of health check entries, found " + ObjectView.describe(root));
    }
    List<HealthCheckExpr> entries = new ArrayList<>(list.size());
    for (int i = 0; i < list.size(); i++) {
      entries.add(entry(source + "[" + i + "]", list.get(i)));
    }
    return List.copyOf(entries);
  }

  private static HealthCheckExpr entry(String where, Object value) {
    if (!(value instanceof Map<?, ?> map)) {
      throw new InvalidHealthCheckException(
          where + ": expected an object, found " + ObjectView.describe(value));
    }
    for (Map.Entry<?, ?> field : map.entrySet()) {
      if (!FIELDS.contains(String.valueOf(field.getKey()))) {
        throw new InvalidHealthCheckException(
            where
                + ": unknown field \""
                + field.getKey()
                + "\" (expected one of apiVersion, kind,"
                + " current, inProgress, failed)");
      }
      if (field.getValue() != null && !(field.getValue() instanceof String)) {
        throw new InvalidHealthCheckException(
            where
                + "."
                + field.getKey()
                + ": expected a string, found "
                + ObjectView.describe(field.getValue()));
      }
    }
    return new HealthCheckExpr(
        (String) map.get("apiVersion"),
        (String) map.get("kind"),
        (String) map.get("current"),
        (String) map.get("inProgress"),
        (String) map.get("failed"));
  }
}
