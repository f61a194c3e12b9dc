package dev.capstan.source.helm;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.Redaction;
import dev.capstan.source.core.SourceException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Locale;

/**
 * A chart version of a repository's index: where it is (its URL resolved against the repository's,
 * as Helm resolves it), its download (the repository's credentials and TLS, bounded in size and
 * time) and the checks of what came (the index's digest when it has one; the chart's name and
 * version).
 */
final class RemoteChart {
  private RemoteChart() {}

  /**
   * The chart's first URL: absolute as it is, else relative to the repository's URL (its path taken
   * as a directory), the repository's query kept when the chart's has none.
   */
  static String url(HelmIndexRequest repository, ChartVersion version) {
    if (version.urls().isEmpty()) {
      throw new SourceException(
          FailureReason.CHART_PULL_FAILED,
          "chart '"
              + version.name()
              + "' version '"
              + version.version()
              + "' has no URL in the index");
    }
    String ref = version.urls().get(0);
    URI repo = RepositoryUrl.parse(repository.target().url());
    URI chart;
    try {
      chart = URI.create(ref);
    } catch (IllegalArgumentException e) {
      throw new SourceException(
          FailureReason.CHART_PULL_FAILED, "the index's URL of the chart is not a URL");
    }
    if (chart.isAbsolute()) {
      return chart.toString();
    }
    String path =
        repo.getRawPath() == null || repo.getRawPath().isEmpty() ? "/" : repo.getRawPath();
    URI base =
        URI.create(
            repo.getScheme()
                + "://"
                + repo.getRawAuthority()
                + (path.endsWith("/") ? path : path + "/"));
    URI resolved = base.resolve(chart);
    if (resolved.getRawQuery() == null && repo.getRawQuery() != null) {
      resolved = URI.create(resolved + "?" + repo.getRawQuery());
    }
    return resolved.toString();
  }

  /** The chart's bytes, checked against the index's digest when it has one. */
  static byte[] download(
      RepositoryDownload download,
      HelmIndexRequest repository,
      String url,
      ChartVersion version,
      Instant deadline)
      throws IOException {
    URI at = URI.create(url);
    if (at.getScheme() == null
        || !(at.getScheme().equals("http") || at.getScheme().equals("https"))) {
      throw new SourceException(
          FailureReason.CHART_PULL_FAILED,
          "the chart's URL '" + Redaction.scrubUrl(url) + "' is not http(s)");
    }
    RepositoryDownload.Answer answer = download.get(repository, at, Validators.NONE, deadline);
    if (!(answer instanceof RepositoryDownload.Body body)) {
      throw new SourceException(
          FailureReason.CHART_PULL_FAILED, "GET " + Redaction.scrubUrl(url) + " answered 304");
    }
    byte[] bytes;
    try (InputStream in = body.in()) {
      bytes = in.readAllBytes();
    } catch (IOException e) {
      // The server's, not the store's: a connection dropped or ended at the deadline.
      throw new SourceException(
          FailureReason.CHART_PULL_FAILED,
          "reading " + Redaction.scrubUrl(url) + " failed (" + e.getClass().getSimpleName() + ")");
    }
    String expected = version.digest();
    if (expected != null && !expected.isBlank()) {
      String actual = HexFormat.of().formatHex(sha256(bytes));
      String wanted = expected.strip().toLowerCase(Locale.ROOT);
      if (wanted.startsWith("sha256:")) {
        wanted = wanted.substring("sha256:".length());
      }
      if (!actual.equals(wanted)) {
        throw new SourceException(
            FailureReason.CHART_PULL_FAILED,
            "the chart at "
                + Redaction.scrubUrl(url)
                + " has digest sha256:"
                + actual
                + ", the index says sha256:"
                + wanted);
      }
    }
    return bytes;
  }

  /** A chart version as downloaded: its archive and its files. */
  record Fetched(byte[] tgz, ChartFiles files) {}

  /**
   * The chart at {@code url}: downloaded ({@link #download}), read as hostile input within {@code
   * limits}, and checked against what the index lists ({@link #check}).
   */
  static Fetched fetch(
      RepositoryDownload download,
      HelmIndexRequest repository,
      String url,
      ChartVersion version,
      ChartLimits limits,
      Instant deadline)
      throws IOException {
    byte[] tgz = download(download, repository, url, version, deadline);
    ChartFiles files =
        ChartArchive.read(
            new ByteArrayInputStream(tgz),
            limits,
            "the chart at " + Redaction.scrubUrl(url),
            FailureReason.CHART_PULL_FAILED);
    check(files, version, url);
    return new Fetched(tgz, files);
  }

  /** The chart's Chart.yaml must name the chart and version the index lists it under. */
  static void check(ChartFiles files, ChartVersion version, String url) {
    if (!files.name().equals(version.name())) {
      throw new SourceException(
          FailureReason.CHART_PULL_FAILED,
          "the chart at "
              + Redaction.scrubUrl(url)
              + " is named '"
              + files.name()
              + "', the index lists it as '"
              + version.name()
              + "'");
    }
    if (!sameVersion(files.version(), version.version())) {
      throw new SourceException(
          FailureReason.CHART_PULL_FAILED,
          "the chart at "
              + Redaction.scrubUrl(url)
              + " has version '"
              + files.version()
              + "', the index lists it as '"
              + version.version()
              + "'");
    }
  }

  private static boolean sameVersion(String chart, String index) {
    return chart.equals(index) || chart.replaceFirst("^v", "").equals(index.replaceFirst("^v", ""));
  }

  static byte[] sha256(byte[] bytes) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(bytes);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JVM has no SHA-256", e);
    }
  }
}
