package dev.capstan.source.helm;

import java.util.List;

/**
 * One version of a chart as a repository's index lists it, with what a chart's fetch needs of it:
 * where to download it and the digest to check it against. The rest of Helm's chart metadata is not
 * kept.
 *
 * @param name the chart's name (the index's key for it)
 * @param version its version, a semantic version
 * @param appVersion the version of the application it installs; null when the index has none
 * @param created when the chart was packaged, as the index writes it; null when absent
 * @param digest the sha256 hex digest of the packaged chart; null when the index has none
 * @param urls where the packaged chart is, absolute or relative to the repository's URL
 */
public record ChartVersion(
    String name,
    String version,
    String appVersion,
    String created,
    String digest,
    List<String> urls) {

  public ChartVersion {
    urls = urls == null ? List.of() : List.copyOf(urls);
  }
}
