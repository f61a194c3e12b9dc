package dev.capstan.source.helm;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * A HelmChart's {@code valuesFiles} merged as Flux merges them: in order, each over the ones
 * before, mappings merged key by key and anything else replaced; the chart's own {@code
 * values.yaml} takes part only where the list names it. The result is the packaged chart's {@code
 * values.yaml}. Its merge of two mappings is also the one a HelmRelease's values are composed with
 * (Flux merges both the same way).
 */
public final class ValuesMerge {
  private ValuesMerge() {}

  /**
   * The merged values and the files that took part.
   *
   * @param yaml the merged mapping, keys in order at every level
   * @param used the files merged, a missing one left out when missing files are ignored
   */
  record Merged(byte[] yaml, List<String> used) {}

  /**
   * @param lookup a path's content; empty when there is no such file
   * @throws SourceException {@code ValuesFilesError} naming a missing file (unless {@code
   *     ignoreMissing}) or one that is no YAML mapping
   */
  static Merged merge(
      List<String> paths, Function<String, Optional<byte[]>> lookup, boolean ignoreMissing) {
    Map<String, Object> merged = new LinkedHashMap<>();
    List<String> used = new ArrayList<>();
    for (String path : paths) {
      Optional<byte[]> content = lookup.apply(path);
      if (content.isEmpty()) {
        if (ignoreMissing) {
          continue;
        }
        throw new SourceException(
            FailureReason.VALUES_FILES_FAILED, "no values file found at path '" + path + "'");
      }
      merged =
          over(merged, ChartYaml.mapping(content.get(), path, FailureReason.VALUES_FILES_FAILED));
      used.add(path);
    }
    return new Merged(ChartYaml.dump(merged, true), List.copyOf(used));
  }

  /** As {@link #merge}; null when no values files are named, so the chart keeps its own. */
  static Merged mergeIfAny(
      List<String> paths, Function<String, Optional<byte[]>> lookup, boolean ignoreMissing) {
    return paths.isEmpty() ? null : merge(paths, lookup, ignoreMissing);
  }

  /** {@code top} merged over {@code base}: mappings key by key, anything else replaced. */
  @SuppressWarnings("unchecked")
  public static Map<String, Object> over(Map<String, Object> base, Map<String, Object> top) {
    Map<String, Object> out = new LinkedHashMap<>(base);
    top.forEach(
        (key, value) -> {
          Object below = out.get(key);
          if (value instanceof Map<?, ?> topMap && below instanceof Map<?, ?> baseMap) {
            out.put(
                key,
                over(
                    stringKeys((Map<Object, Object>) baseMap),
                    stringKeys((Map<Object, Object>) topMap)));
          } else {
            out.put(key, value);
          }
        });
    return out;
  }

  private static Map<String, Object> stringKeys(Map<Object, Object> map) {
    Map<String, Object> out = new LinkedHashMap<>();
    map.forEach((k, v) -> out.put(String.valueOf(k), v));
    return out;
  }
}
