package dev.capstan.source.helm;

import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.semver4j.Semver;

/**
 * The entries of an index as Flux stores them: chart names in order, each chart's versions highest
 * first (Helm's order, so that the stored index and its digest do not depend on the order a server
 * lists them in).
 *
 * @param entries chart name to its versions, highest first
 */
record ParsedIndex(Map<String, List<ChartVersion>> entries) {

  /** Highest version first; equal versions (1.0 and 1.0.0) by their text, so the order is total. */
  static final Comparator<ChartVersion> HIGHEST_FIRST =
      Comparator.comparing((ChartVersion v) -> semver(v.version()).orElseThrow())
          .reversed()
          .thenComparing(ChartVersion::version);

  static ParsedIndex sorted(Map<String, List<ChartVersion>> entries) {
    Map<String, List<ChartVersion>> sorted = new LinkedHashMap<>();
    new TreeMap<>(entries)
        .forEach(
            (chart, versions) -> {
              if (!versions.isEmpty()) {
                sorted.put(chart, versions.stream().sorted(HIGHEST_FIRST).toList());
              }
            });
    return new ParsedIndex(sorted);
  }

  /** The chart versions of the index. */
  int count() {
    return entries.values().stream().mapToInt(List::size).sum();
  }

  static boolean hasSemver(ChartVersion version) {
    return semver(version.version()).isPresent();
  }

  /** A version as Helm reads one: a leading v allowed, a missing minor or patch taken as 0. */
  static Optional<Semver> semver(String version) {
    String text = version.startsWith("v") ? version.substring(1) : version;
    try {
      Semver strict = Semver.parse(text);
      return Optional.ofNullable(strict != null ? strict : Semver.coerce(text));
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }
}
