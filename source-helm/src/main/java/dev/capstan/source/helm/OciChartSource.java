package dev.capstan.source.helm;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SemverRange;
import dev.capstan.source.core.SourceException;
import dev.capstan.source.core.Verified;
import dev.capstan.source.core.store.ArtifactStore;
import dev.capstan.source.core.store.FetchResult;
import dev.capstan.source.core.store.StoredArtifact;
import dev.capstan.source.core.store.StoredState;
import dev.capstan.source.core.store.TreeFilter;
import dev.capstan.source.oci.CosignKeys;
import dev.capstan.source.oci.Descriptor;
import dev.capstan.source.oci.KeylessPolicy;
import dev.capstan.source.oci.Manifest;
import dev.capstan.source.oci.OciFetchRequest;
import dev.capstan.source.oci.OciSource;
import dev.capstan.source.oci.RegistryReader;
import dev.capstan.source.oci.Safe;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pulls a chart from an OCI registry (a HelmRepository of type {@code oci}) into the artifact
 * store, through source-oci's registry client: the highest tag in the semver range, its manifest
 * checked to be a Helm chart's, the chart layer downloaded bounded and hashed against its
 * descriptor, checked to be a chart archive, verified with cosign when asked, and stored as {@code
 * <chart>-<version>.tgz}; values files named by the HelmChart are merged into its values.yaml (the
 * chart packaged again, its version given Flux's build metadata), as a chart of an index is. The
 * revision is the chart version. An unchanged tag and digest is one tag listing and one HEAD
 * request: nothing downloaded, nothing written. A failure keeps the last good artifact. Pulls of
 * one chart are serialized.
 */
public final class OciChartSource {
  private static final Logger LOG = LoggerFactory.getLogger(OciChartSource.class);

  public static final String CONFIG_MEDIA_TYPE = "application/vnd.cncf.helm.config.v1+json";
  public static final String CHART_MEDIA_TYPE =
      "application/vnd.cncf.helm.chart.content.v1.tar+gzip";

  /** Flux's default bound of a chart's download ({@code --helm-chart-max-size}). */
  public static final long DEFAULT_MAX_CHART_SIZE = 10L << 20;

  private final OciSource oci;
  private final ArtifactStore store;
  private final Clock clock;
  private final long maxChartSize;
  private final Map<String, ReentrantLock> locks = new ConcurrentHashMap<>();

  /**
   * @param oci the OCI source whose client (tokens, TLS, probes) is shared; same store
   * @param maxChartSize the largest chart layer downloaded; Flux's 10 MiB when not positive
   */
  public OciChartSource(OciSource oci, ArtifactStore store, Clock clock, long maxChartSize) {
    this.oci = oci;
    this.store = store;
    this.clock = clock;
    this.maxChartSize = maxChartSize > 0 ? maxChartSize : DEFAULT_MAX_CHART_SIZE;
  }

  /** The stored chart archive of an artifact this source made. */
  public static Path chartFile(StoredArtifact artifact) throws IOException {
    try (var files = Files.list(artifact.path())) {
      return files
          .filter(f -> f.getFileName().toString().endsWith(".tgz"))
          .findFirst()
          .orElseThrow(() -> new IOException("no chart archive in " + artifact.path()));
    }
  }

  public FetchResult pull(OciChartRequest request) {
    ReentrantLock lock = locks.computeIfAbsent(request.key(), k -> new ReentrantLock());
    lock.lock();
    OciFetchRequest ociRequest = null;
    try {
      ociRequest = OciChartRequests.toOci(request);
      return pullLocked(request, ociRequest);
    } catch (SourceException e) {
      // Before the request is made only the Secrets' shape is checked, in messages of our own.
      String message =
          ociRequest == null ? e.getMessage() : oci.scrubbed(ociRequest, e.getMessage());
      return failed(request, e.reason(), message);
    } catch (IOException e) {
      return failed(
          request,
          FailureReason.STORAGE_FAILED,
          "cannot store the chart (" + e.getClass().getSimpleName() + ")");
    } catch (RuntimeException e) {
      LOG.warn("{}: chart pull failed unexpectedly", request.key(), e);
      return failed(
          request,
          FailureReason.OCI_PULL_FAILED,
          "the chart pull failed unexpectedly (" + e.getClass().getSimpleName() + ")");
    } finally {
      lock.unlock();
    }
  }

  private FetchResult pullLocked(OciChartRequest request, OciFetchRequest ociRequest)
      throws IOException {
    OciChartRequests.checkChartName(request.chart());
    Optional<CosignKeys> keys = OciChartRequests.keys(request);
    Optional<KeylessPolicy> keyless = OciChartRequests.keyless(request);
    Instant deadline = clock.instant().plus(request.timeout());
    RegistryReader registry = oci.reader(ociRequest, deadline);
    Tag tag = highest(registry, request.version());
    String digest = registry.resolve(tag.name());
    String sourceId = sourceId(request, keys, keyless);
    String revision = ChartVersions.withMetadata(tag.version(), request.versionMetadata());
    Optional<StoredState> state = store.state(request.key());
    Optional<StoredArtifact> unchanged =
        state
            .filter(s -> s.sourceId().equals(sourceId) && s.remoteId().equals(digest))
            .filter(s -> s.revision().equals(revision))
            .flatMap(store::artifactOf);
    if (unchanged.isPresent()) {
      return new FetchResult.Unchanged(unchanged.get());
    }
    Manifest manifest = registry.manifest(digest);
    Descriptor layer = chartLayer(manifest, registry.display(), tag.name());
    Optional<Verified> verified =
        keys.map(k -> new Verified("cosign", registry.verify(digest, tag.version(), k)))
            .or(
                () ->
                    keyless.map(
                        p ->
                            new Verified(
                                "cosign", registry.verifyKeyless(digest, tag.version(), p))));
    Pulled pulled = new Pulled(tag, revision, digest, sourceId);
    return new FetchResult.Fetched(store(request, registry, layer, pulled, state, verified));
  }

  /**
   * What a pull resolved: the tag, the revision stored (the chart version with the request's build
   * metadata), the manifest's digest and the request's identity.
   */
  private record Pulled(Tag tag, String revision, String digest, String sourceId) {}

  /** A tag and the chart version it stands for ({@code _} in a tag is a version's {@code +}). */
  record Tag(String name, String version) {}

  static Tag highest(RegistryReader registry, String range) {
    Map<String, String> tagsByVersion = new HashMap<>();
    for (String tag : registry.tags()) {
      tagsByVersion.putIfAbsent(tag.replace('_', '+'), tag);
    }
    String version =
        SemverRange.parse(range)
            .highestMatch(tagsByVersion.keySet())
            .orElseThrow(
                () ->
                    new SourceException(
                        FailureReason.REF_NOT_FOUND,
                        "no chart version of "
                            + registry.display()
                            + " matches '"
                            + Safe.text(range)
                            + "'"));
    return new Tag(tagsByVersion.get(version), version);
  }

  /** The chart layer of a Helm chart's manifest; anything else is refused by its media types. */
  static Descriptor chartLayer(Manifest manifest, String where, String tag) {
    String config = manifest.config().mediaType();
    if (!CONFIG_MEDIA_TYPE.equals(config)) {
      throw new SourceException(
          FailureReason.OCI_PULL_FAILED,
          where
              + ":"
              + Safe.text(tag)
              + " is not a Helm chart: its config media type is '"
              + Safe.text(config)
              + "', not '"
              + CONFIG_MEDIA_TYPE
              + "'");
    }
    return manifest.layers().stream()
        .filter(l -> CHART_MEDIA_TYPE.equals(l.mediaType()))
        .findFirst()
        .orElseThrow(
            () ->
                new SourceException(
                    FailureReason.OCI_LAYER_FAILED,
                    where + ":" + Safe.text(tag) + " has no layer of type " + CHART_MEDIA_TYPE));
  }

  private StoredArtifact store(
      OciChartRequest request,
      RegistryReader registry,
      Descriptor layer,
      Pulled pulled,
      Optional<StoredState> previous,
      Optional<Verified> verified)
      throws IOException {
    Path download = store.newTempDir();
    Path exported = store.newTempDir();
    try {
      Path blob = download.resolve("chart.tgz");
      Tag tag = pulled.tag();
      registry.download(layer, blob, maxChartSize, FailureReason.OCI_LAYER_FAILED);
      ChartFiles files = checkChart(blob, request.chart(), tag.version());
      ValuesMerge.Merged values =
          ValuesMerge.mergeIfAny(
              request.valuesFiles(), files::file, request.ignoreMissingValuesFiles());
      ChartFiles built = files.built(pulled.revision(), values);
      if (built == files) {
        Files.move(blob, exported.resolve(request.chart() + "-" + tag.name() + ".tgz"));
      } else {
        // Packaged again as a chart directory's is, as Flux packages a chart it merged values into.
        Files.write(
            exported.resolve(request.chart() + "-" + pulled.revision() + ".tgz"),
            ChartArchive.write(built));
      }
      String treeDigest = TreeFilter.filter(exported, "", "");
      StoredState next =
          new StoredState(
                  pulled.sourceId(),
                  pulled.digest(),
                  pulled.revision(),
                  treeDigest,
                  clock.instant(),
                  null,
                  verified,
                  List.of(),
                  Map.of(
                      HelmChartSource.CHART_NAME,
                      request.chart(),
                      HelmChartSource.VALUES_FILES,
                      values == null ? "" : String.join("\n", values.used())))
              .after(previous);
      StoredArtifact artifact = store.publish(request.key(), exported, next);
      LOG.info("stored chart {} {} ({})", request.chart(), pulled.revision(), pulled.digest());
      return artifact;
    } finally {
      ArtifactStore.deleteQuietly(download);
      ArtifactStore.deleteQuietly(exported);
    }
  }

  private static String sourceId(
      OciChartRequest request, Optional<CosignKeys> keys, Optional<KeylessPolicy> keyless) {
    return ArtifactStore.sha256Hex(
        String.join(
            "\n",
            request.chartUrl(),
            request.version(),
            keys.map(CosignKeys::identity)
                .or(() -> keyless.map(p -> "keyless:" + p.identity()))
                .orElse("unverified"),
            request.buildIdentity()));
  }

  private FetchResult failed(OciChartRequest request, FailureReason reason, String message) {
    String text =
        reason.needsSpecChange() || reason == FailureReason.VERIFICATION_FAILED
            ? message
            : "failed to pull chart '" + request.chart() + "': " + message;
    LOG.warn("{}: {}", reason.conditionReason(), text);
    return new FetchResult.Failed(
        reason, text, store.state(request.key()).flatMap(store::artifactOf));
  }

  /**
   * The layer must be a chart archive as every downloaded chart must be ({@link ChartArchive}'s
   * checks and bounds), of the chart and version its tag names.
   */
  private static ChartFiles checkChart(Path blob, String chart, String version) throws IOException {
    String what = "the chart layer of '" + chart + "' " + version;
    ChartFiles files;
    try (InputStream in = Files.newInputStream(blob)) {
      files = ChartArchive.read(in, ChartLimits.DEFAULTS, what, FailureReason.OCI_LAYER_FAILED);
    }
    if (!chart.equals(files.name())) {
      throw new SourceException(
          FailureReason.OCI_LAYER_FAILED,
          what + ": its Chart.yaml names chart '" + Safe.text(files.name()) + "'");
    }
    if (!version.equals(files.version().replace('_', '+'))) {
      throw new SourceException(
          FailureReason.OCI_LAYER_FAILED,
          what + ": its Chart.yaml has version '" + Safe.text(files.version()) + "'");
    }
    return files;
  }
}
