package dev.capstan.source.helm;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SemverRange;
import dev.capstan.source.core.SourceException;
import dev.capstan.source.core.store.StoredArtifact;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.util.List;
import java.util.Optional;

/**
 * Finds a chart version in a HelmRepository's stored index: the chart's name and a semver range
 * give the highest version in the range, as Helm picks one (a version written exactly as the range
 * is taken first; no range means the highest version that is not a pre-release). The stored index
 * is read as a stream again and only the named chart's versions are kept, so a lookup costs that
 * chart, not the index.
 */
public final class ChartLookup {
  private final IndexParser parser;

  public ChartLookup(IndexLimits limits) {
    this.parser = new IndexParser(limits);
  }

  /**
   * The version of {@code chart} that {@code range} picks in {@code artifact}'s index.
   *
   * @param range a semver range ({@code ^1.2}, {@code >=1.0.0 <2.0.0}, {@code 1.2.3}); null or
   *     blank for any version
   * @return empty when the index has no such chart or no version in the range
   * @throws SourceException {@code InvalidRef} for a range that is none; {@code
   *     StorageOperationFailed} when the stored index cannot be read
   */
  public Optional<ChartVersion> find(StoredArtifact artifact, String chart, String range) {
    SemverRange versions =
        SemverRange.parse(range == null || range.isBlank() ? "*" : range.strip());
    List<ChartVersion> candidates = versionsOf(artifact, chart);
    return candidates.stream()
        .filter(v -> v.version().equals(versions.text().strip()))
        .findFirst()
        .or(() -> candidates.stream().filter(v -> versions.includes(v.version())).findFirst());
  }

  /** Every version of {@code chart} in the stored index, highest first. */
  public List<ChartVersion> versionsOf(StoredArtifact artifact, String chart) {
    try (InputStream in = Files.newInputStream(HelmIndexSource.indexFile(artifact))) {
      return parser.parse(in, chart::equals).entries().getOrDefault(chart, List.of());
    } catch (IOException e) {
      throw new SourceException(
          FailureReason.STORAGE_FAILED,
          "the stored index of revision '" + artifact.revision() + "' cannot be read",
          e);
    }
  }
}
