package dev.capstan.health;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Reads a YAML (or JSON) list of entries in the {@code healthCheckExprs} schema. */
public final class HealthCheckExprsYaml {
  private static final Set<String> FIELDS =
      Set.of("apiVersion", "kind", "current", "inProgress", "failed");

  private final ObjectMapper mapper = new YAMLMapper();

  /**
   * Parses the list; every entry must be an object whose fields are strings from the schema.
   *
   * @param source names the input in error messages (a file name)
   * @throws InvalidHealthCheckException naming the source, the entry and the problem
   */
  public List<HealthCheckExpr> parse(String source, String yaml) {
    Object root;
    try {
      root = yaml.isBlank() ? List.of() : mapper.readValue(yaml, Object.class);
    } catch (JsonProcessingException e) {
      throw new InvalidHealthCheckException(
          source + ": not valid YAML: " + e.getOriginalMessage() + location(e));
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
            where + ": unknown field \"" + field.getKey() + "\" (expected one of apiVersion, kind,"
                + " current, inProgress, failed)");
      }
      if (field.getValue() != null && !(field.getValue() instanceof String)) {
        throw new InvalidHealthCheckException(
            where + "." + field.getKey() + ": expected a string, found "
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

  private static String location(JsonProcessingException e) {
    return e.getLocation() == null
        ? ""
        : " (line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr() + ")";
  }
}
