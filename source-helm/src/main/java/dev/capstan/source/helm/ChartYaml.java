package dev.capstan.source.helm;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.snakeyaml.engine.v2.api.Dump;
import org.snakeyaml.engine.v2.api.DumpSettings;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.common.FlowStyle;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;

/**
 * Reads and writes the YAML of a chart: its Chart.yaml (name, version, dependencies) and values
 * files. Bounded (a file is already bounded in bytes; aliases and nesting are bounded here), and a
 * failure names the file, never its content.
 */
final class ChartYaml {
  /** Nesting a values file may have. */
  static final int MAX_DEPTH = 64;

  private static final Pattern LOCATION = Pattern.compile("line (\\d+), column (\\d+)");

  private ChartYaml() {}

  /** What names a chart: its Chart.yaml's name and version. */
  record Identity(String name, String version) {}

  /** A dependency Chart.yaml names: its name, version range and where it comes from. */
  record Dependency(String name, String version, String repository) {}

  /** A YAML mapping; an empty document is an empty mapping. */
  static Map<String, Object> mapping(byte[] yaml, String file, FailureReason reason) {
    Object doc;
    try {
      LoadSettings settings =
          LoadSettings.builder()
              .setMaxAliasesForCollections(50)
              .setAllowRecursiveKeys(false)
              .setCodePointLimit(Integer.MAX_VALUE)
              .setLabel(file)
              .build();
      doc = new Load(settings).loadFromString(new String(yaml, StandardCharsets.UTF_8));
    } catch (YamlEngineException e) {
      String where = e.getMessage() == null ? "" : locationOf(e.getMessage());
      throw new SourceException(reason, "'" + file + "' is not valid YAML" + where);
    }
    if (doc == null) {
      return new LinkedHashMap<>();
    }
    if (!(doc instanceof Map<?, ?> map)) {
      throw new SourceException(reason, "'" + file + "' is not a YAML mapping");
    }
    depthOf(map, 0, file, reason);
    Map<String, Object> result = new LinkedHashMap<>();
    map.forEach((k, v) -> result.put(String.valueOf(k), v));
    return result;
  }

  /** The {@code name} and {@code version} of a Chart.yaml, both required. */
  static Identity identity(byte[] chartYaml, String file, FailureReason reason) {
    Map<String, Object> chart = mapping(chartYaml, file, reason);
    Object name = chart.get("name");
    Object version = chart.get("version");
    if (!(name instanceof String n) || n.isBlank()) {
      throw new SourceException(reason, "'" + file + "' has no chart name");
    }
    if (version == null || String.valueOf(version).isBlank()) {
      throw new SourceException(reason, "'" + file + "' has no chart version");
    }
    return new Identity(n, String.valueOf(version));
  }

  /** The dependencies a Chart.yaml lists. */
  static List<Dependency> dependencies(byte[] chartYaml, String file, FailureReason reason) {
    Object listed = mapping(chartYaml, file, reason).get("dependencies");
    List<Dependency> dependencies = new ArrayList<>();
    if (listed instanceof List<?> list) {
      for (Object item : list) {
        if (item instanceof Map<?, ?> dep && dep.get("name") != null) {
          Object repository = dep.get("repository");
          Object version = dep.get("version");
          dependencies.add(
              new Dependency(
                  String.valueOf(dep.get("name")),
                  version == null ? "" : String.valueOf(version),
                  repository == null ? "" : String.valueOf(repository)));
        }
      }
    }
    return dependencies;
  }

  /** A Chart.yaml with its version replaced, the rest kept. */
  static byte[] withVersion(byte[] chartYaml, String version) {
    Map<String, Object> chart =
        mapping(chartYaml, "Chart.yaml", FailureReason.CHART_PACKAGE_FAILED);
    chart.put("version", version);
    return dump(chart, false);
  }

  /** YAML of a mapping; with {@code sorted}, keys in order at every level, as Go writes maps. */
  static byte[] dump(Map<String, Object> map, boolean sorted) {
    DumpSettings settings =
        DumpSettings.builder().setDefaultFlowStyle(FlowStyle.BLOCK).setIndent(2).build();
    Object doc = sorted ? sortedCopy(map) : map;
    return new Dump(settings).dumpToString(doc).getBytes(StandardCharsets.UTF_8);
  }

  private static Object sortedCopy(Object value) {
    if (value instanceof Map<?, ?> map) {
      Map<String, Object> sorted = new TreeMap<>();
      map.forEach((k, v) -> sorted.put(String.valueOf(k), sortedCopy(v)));
      return sorted;
    }
    if (value instanceof List<?> list) {
      return list.stream().map(ChartYaml::sortedCopy).toList();
    }
    return value;
  }

  private static void depthOf(Object value, int depth, String file, FailureReason reason) {
    if (depth > MAX_DEPTH) {
      throw new SourceException(
          reason, "'" + file + "' nests deeper than " + MAX_DEPTH + " levels");
    }
    if (value instanceof Map<?, ?> map) {
      for (Object v : map.values()) {
        depthOf(v, depth + 1, file, reason);
      }
    } else if (value instanceof List<?> list) {
      for (Object v : list) {
        depthOf(v, depth + 1, file, reason);
      }
    }
  }

  /** The line and column of a parser's message, without the input it quotes. */
  private static String locationOf(String message) {
    Matcher at = LOCATION.matcher(message);
    return at.find() ? " (line " + at.group(1) + ", column " + at.group(2) + ")" : "";
  }
}
