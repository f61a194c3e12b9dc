package dev.capstan.source.helm;

/**
 * A packaged chart's version as Flux writes it: the chart's own version with build metadata after a
 * {@code +} (the source's short revision for {@code reconcileStrategy: Revision}, the HelmChart's
 * generation when values files are merged), replacing any the chart had.
 */
public final class ChartVersions {
  /** Characters of a source's hex revision Flux keeps: short enough for a label's 63. */
  public static final int SHORT_REVISION = 12;

  private ChartVersions() {}

  /** {@code version} with {@code metadata}; unchanged when {@code metadata} is null or empty. */
  static String withMetadata(String version, String metadata) {
    if (metadata == null || metadata.isEmpty()) {
      return version;
    }
    int plus = version.indexOf('+');
    return (plus < 0 ? version : version.substring(0, plus)) + "+" + metadata;
  }

  /**
   * The metadata Flux gives a chart's version: the first {@link #SHORT_REVISION} hex characters of
   * the source's revision (after {@code sha1:} or {@code sha256:}) when {@code revision} is given,
   * then the generation (after a dot) when values files are merged; null when neither.
   *
   * @param revision the source artifact's revision, null unless the strategy is Revision
   * @param generation the HelmChart's generation, null unless it merges values files
   */
  public static String metadata(String revision, Long generation) {
    StringBuilder metadata = new StringBuilder();
    if (revision != null) {
      int colon = revision.lastIndexOf(':');
      String hex = colon < 0 ? revision : revision.substring(colon + 1);
      metadata.append(hex, 0, Math.min(SHORT_REVISION, hex.length()));
    }
    if (generation != null) {
      if (metadata.length() > 0) {
        metadata.append('.');
      }
      metadata.append(generation);
    }
    return metadata.length() == 0 ? null : metadata.toString();
  }
}
