package dev.capstan.source.helm;

import java.util.Collections;
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
}
