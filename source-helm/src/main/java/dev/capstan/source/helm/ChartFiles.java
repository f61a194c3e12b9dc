package dev.capstan.source.helm;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A chart's files in memory, by their path below the chart's directory ({@code Chart.yaml}, {@code
 * templates/deployment.yaml}, {@code charts/dep/Chart.yaml}), with the name and version its
 * Chart.yaml gives. Bounded by {@link ChartLimits} wherever it is read from.
 */
record ChartFiles(String name, String version, SortedMap<String, byte[]> files) {
  static final String CHART_YAML = "Chart.yaml";
  static final String VALUES_YAML = "values.yaml";

  ChartFiles {
    files = Collections.unmodifiableSortedMap(new TreeMap<>(files));
  }

  /** The same chart with {@code path} holding {@code content}. */
  ChartFiles with(String path, byte[] content) {
    TreeMap<String, byte[]> changed = new TreeMap<>(files);
    changed.put(path, content);
    return new ChartFiles(name, version, changed);
  }

  /** The file a HelmChart's values file names ({@code ./values.yaml} too); empty if none. */
  Optional<byte[]> file(String path) {
    return Optional.ofNullable(files.get(relative(path)));
  }

  /**
   * The chart as a HelmChart stores it: {@code newVersion} (Flux's build metadata) in its version
   * and its Chart.yaml, and the merged values, when given, as its values.yaml; this same object
   * when neither changes it, so a downloaded archive can be kept as it came.
   */
  ChartFiles built(String newVersion, ValuesMerge.Merged values) {
    ChartFiles built = this;
    if (!newVersion.equals(version)) {
      built =
          new ChartFiles(name, newVersion, files)
              .with(CHART_YAML, ChartYaml.withVersion(files.get(CHART_YAML), newVersion));
    }
    return values == null ? built : built.with(VALUES_YAML, values.yaml());
  }

  /** A relative path as a chart's files name it: no leading {@code ./} or {@code /}. */
  static String relative(String path) {
    List<String> parts = new ArrayList<>();
    for (String part : path.replace('\\', '/').split("/")) {
      if (!part.isEmpty() && !part.equals(".")) {
        parts.add(part);
      }
    }
    return String.join("/", parts);
  }
}
