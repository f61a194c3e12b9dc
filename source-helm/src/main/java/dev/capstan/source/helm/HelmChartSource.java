package dev.capstan.source.helm;

import dev.capstan.source.core.Deadline;
import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.ReadDeadlines;
import dev.capstan.source.core.Redaction;
import dev.capstan.source.core.SourceException;
import dev.capstan.source.core.store.ArtifactStore;
import dev.capstan.source.core.store.FetchResult;
import dev.capstan.source.core.store.StoredArtifact;
import dev.capstan.source.core.store.StoredState;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds a HelmChart's artifact into the store the other sources use: a chart version found in a
 * HelmRepository's stored index and downloaded ({@link #fromRepository}), or a chart directory in a
 * source's artifact packaged ({@link #fromDirectory}); values files merged into its values.yaml.
 * The artifact is one {@code <name>-<version>.tgz}, its revision the chart's version. A request
 * answered by the stored artifact (the same index entry and digest, or the same source artifact,
 * and the same values files) fetches and builds nothing. A failure stores nothing and keeps the
 * last good artifact.
 */
public final class HelmChartSource {
  /** The artifact's metadata: the chart's name. */
  public static final String CHART_NAME = "chartName";

  /** The artifact's metadata: the values files merged into it, one a line. */
  public static final String VALUES_FILES = "valuesFiles";

  private static final Logger LOG = LoggerFactory.getLogger(HelmChartSource.class);

  private final ArtifactStore store;
  private final Clock clock;
  private final ChartLimits limits;
  private final ChartLookup lookup;
  private final RepositoryDownload download;

  public HelmChartSource(
      ArtifactStore store,
      Clock clock,
      ChartLimits limits,
      IndexLimits indexLimits,
      ReadDeadlines reads) {
    this.store = store;
    this.clock = clock;
    this.limits = limits;
    this.lookup = new ChartLookup(indexLimits);
    this.download =
        new RepositoryDownload(
            new HttpClients(),
            reads,
            clock,
            new RepositoryDownload.Kind(
                "the chart",
                "the bound of a chart",
                FailureReason.CHART_PULL_FAILED,
                limits.archiveBytes()));
  }

  /** The artifact last stored for {@code key}, if it is still in the store. */
  public Optional<StoredArtifact> lastArtifact(String key) {
    return store.state(key).flatMap(store::artifactOf);
  }

  /** Forgets a HelmChart that was deleted: its state, and its artifact unless shared. */
  public void forget(String key) throws IOException {
    store.forget(key);
  }

  /** The packaged chart of an artifact this source made. */
  public static Path chartFile(StoredArtifact artifact) throws IOException {
    try (Stream<Path> files = Files.list(artifact.path())) {
      return files
          .filter(f -> f.getFileName().toString().endsWith(".tgz"))
          .findFirst()
          .orElseThrow(() -> new IOException("no packaged chart in " + artifact.path()));
    }
  }

  /** The values files merged into an artifact this source made. */
  public static List<String> valuesFiles(StoredArtifact artifact) {
    String files = artifact.metadata().getOrDefault(VALUES_FILES, "");
    return files.isEmpty() ? List.of() : List.of(files.split("\n"));
  }

  /**
   * The version of {@code chart.chart()} that {@code chart.version()} picks in the repository's
   * stored {@code index}, downloaded with the repository's credentials and TLS ({@code
   * repository}), checked and stored.
   */
  public FetchResult fromRepository(
      ChartRequest chart, HelmIndexRequest repository, StoredArtifact index) {
    Optional<StoredState> previous = store.state(chart.key());
    Optional<StoredArtifact> last = previous.flatMap(store::artifactOf);
    try {
      ChartVersion version =
          lookup
              .find(index, chart.chart(), chart.version())
              .orElseThrow(() -> notInIndex(chart, index));
      String url = RemoteChart.url(repository, version);
      String sourceId =
          ArtifactStore.sha256Hex(
              chart.identity() + "\n" + url + "\n" + version.version() + "\n" + version.digest());
      if (last.isPresent() && previous.get().sourceId().equals(sourceId)) {
        return new FetchResult.Unchanged(last.get());
      }
      Instant deadline = clock.instant().plus(repository.target().timeout());
      RemoteChart.Fetched fetched =
          RemoteChart.fetch(download, repository, url, version, limits, deadline);
      ChartFiles files = fetched.files();
      ValuesMerge.Merged values = merged(chart, files::file);
      return stored(chart, sourceId, files, fetched.tgz(), values, previous, last);
    } catch (SourceException e) {
      return new FetchResult.Failed(e.reason(), scrubbed(e.getMessage(), repository), last);
    } catch (IOException e) {
      return storageFailed(chart, e, last);
    }
  }

  /**
   * The chart directory at {@code chart.chart()} in the source's artifact, packaged as Helm
   * packages it, and stored; a dependency on a repository is refused by name.
   */
  public FetchResult fromDirectory(ChartRequest chart, StoredArtifact source) {
    return fromDirectory(chart, source, DependencyRepositories.NONE);
  }

  /**
   * As {@link #fromDirectory(ChartRequest, StoredArtifact)}, a dependency on a repository
   * downloaded through the repository {@code repositories} finds for its URL (with its
   * credentials), into the packaged chart's {@code charts/}.
   */
  public FetchResult fromDirectory(
      ChartRequest chart, StoredArtifact source, DependencyRepositories repositories) {
    Optional<StoredState> previous = store.state(chart.key());
    Optional<StoredArtifact> last = previous.flatMap(store::artifactOf);
    try {
      String sourceId = ArtifactStore.sha256Hex(chart.identity() + "\n" + source.digest());
      if (last.isPresent() && previous.get().sourceId().equals(sourceId)) {
        return new FetchResult.Unchanged(last.get());
      }
      Instant until = clock.instant().plus(chart.timeout());
      Deadline deadline = new Deadline(clock, until);
      ChartDirectory.Remote remote =
          new DependencyDownload(repositories, lookup, download, limits, until);
      ChartFiles files =
          ChartDirectory.read(source.path(), chart.chart(), limits, deadline, remote);
      ValuesMerge.Merged values = merged(chart, path -> fileIn(source.path(), path));
      return stored(chart, sourceId, files, null, values, previous, last);
    } catch (SourceException e) {
      return new FetchResult.Failed(e.reason(), e.getMessage(), last);
    } catch (IOException e) {
      return storageFailed(chart, e, last);
    }
  }

  private ValuesMerge.Merged merged(ChartRequest chart, Function<String, Optional<byte[]>> lookup) {
    return ValuesMerge.mergeIfAny(chart.valuesFiles(), lookup, chart.ignoreMissingValuesFiles());
  }

  /**
   * The chart stored: as downloaded when nothing changes it, else packaged with its merged values
   * and its version with the request's metadata.
   */
  private FetchResult stored(
      ChartRequest chart,
      String sourceId,
      ChartFiles files,
      byte[] downloaded,
      ValuesMerge.Merged values,
      Optional<StoredState> previous,
      Optional<StoredArtifact> last)
      throws IOException {
    String version = ChartVersions.withMetadata(files.version(), chart.versionMetadata());
    ChartFiles built = files.built(version, values);
    byte[] archive = built == files && downloaded != null ? downloaded : ChartArchive.write(built);
    String digest = "sha256:" + HexFormat.of().formatHex(RemoteChart.sha256(archive));
    Path dir = store.newTempDir();
    try {
      Files.write(dir.resolve(built.name() + "-" + version + ".tgz"), archive);
      Map<String, String> metadata =
          Map.of(
              CHART_NAME,
              built.name(),
              VALUES_FILES,
              values == null ? "" : String.join("\n", values.used()));
      StoredState next =
          new StoredState(
                  sourceId,
                  version,
                  version,
                  digest,
                  clock.instant(),
                  null,
                  Optional.empty(),
                  List.of(),
                  metadata)
              .after(previous);
      StoredArtifact artifact = store.publish(chart.key(), dir, next);
      boolean same = last.map(a -> a.digest().equals(digest)).orElse(false);
      return same ? new FetchResult.Unchanged(artifact) : new FetchResult.Fetched(artifact);
    } catch (IOException | RuntimeException e) {
      ArtifactStore.deleteQuietly(dir);
      throw e;
    }
  }

  /** A values file of a source's artifact, relative to its root; empty when there is none. */
  private Optional<byte[]> fileIn(Path root, String path) {
    Path base = root.toAbsolutePath().normalize();
    Path file = base.resolve(ChartFiles.relative(path)).normalize();
    if (!file.startsWith(base)) {
      throw new SourceException(
          FailureReason.VALUES_FILES_FAILED,
          "values file '" + path + "' leaves the source's artifact");
    }
    if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
      return Optional.empty();
    }
    try (InputStream in = Files.newInputStream(file)) {
      byte[] content = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, limits.fileBytes() + 1));
      if (content.length > limits.fileBytes()) {
        throw new SourceException(
            FailureReason.VALUES_FILES_FAILED,
            "values file '" + path + "' is larger than " + limits.fileBytes() + " bytes");
      }
      return Optional.of(content);
    } catch (IOException e) {
      throw new SourceException(
          FailureReason.VALUES_FILES_FAILED, "values file '" + path + "' cannot be read");
    }
  }

  private static SourceException notInIndex(ChartRequest chart, StoredArtifact index) {
    String range = chart.version() == null || chart.version().isBlank() ? "*" : chart.version();
    return new SourceException(
        FailureReason.INVALID_CHART_REFERENCE,
        "no chart version of '"
            + chart.chart()
            + "' matches '"
            + range
            + "' in the repository's index (revision '"
            + index.revision()
            + "')");
  }

  private static FetchResult storageFailed(
      ChartRequest chart, IOException e, Optional<StoredArtifact> last) {
    LOG.warn("storing the chart of {} failed", chart.key(), e);
    return new FetchResult.Failed(
        FailureReason.STORAGE_FAILED,
        "storing the chart failed: " + e.getClass().getSimpleName(),
        last);
  }

  /** {@code message} without the values of the repository's credentials. */
  static String scrubbed(String message, HelmIndexRequest request) {
    List<byte[]> values = new ArrayList<>(request.credentials().values());
    return Redaction.scrub(message, Redaction.textOf(values));
  }
}
