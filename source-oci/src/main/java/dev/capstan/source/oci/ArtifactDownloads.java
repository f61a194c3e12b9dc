package dev.capstan.source.oci;

import dev.capstan.source.ArtifactStore;
import dev.capstan.source.FailureReason;
import dev.capstan.source.SourceException;
import dev.capstan.source.StoredArtifact;
import dev.capstan.source.StoredState;
import dev.capstan.source.TreeFilter;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The artifacts of ExternalArtifacts: a tar+gzip file another controller serves at the URL its
 * status names, downloaded (bounded in size and time, the body's every byte within the deadline, no
 * credentials sent, no redirect followed), checked against the status's sha256 digest, unpacked
 * with the same bounds as an OCI layer and stored in the shared artifact store. The same URL and
 * digest are not downloaded again.
 */
public final class ArtifactDownloads {
  private final ArtifactStore store;
  private final Clock clock;
  private final long sizeLimit;
  private final LayerUnpacker.Limits limits;
  private final HttpClient http;
  private final ReadDeadlines reads;
  private final Map<String, ReentrantLock> locks = new ConcurrentHashMap<>();

  public ArtifactDownloads(
      ArtifactStore store, Clock clock, long sizeLimit, LayerUnpacker.Limits limits) {
    this(store, clock, sizeLimit, limits, ReadDeadlines.withOwnThread(clock));
  }

  public ArtifactDownloads(
      ArtifactStore store,
      Clock clock,
      long sizeLimit,
      LayerUnpacker.Limits limits,
      ReadDeadlines reads) {
    this.store = store;
    this.clock = clock;
    this.sizeLimit = sizeLimit;
    this.limits = limits;
    this.reads = reads;
    this.http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(30))
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();
  }

  /** One artifact to have: where it is served, its digest and its revision. */
  public record Wanted(
      String key, String url, String digest, String revision, Map<String, String> metadata) {}

  /**
   * The stored tree of {@code wanted}, downloaded now unless the store already has it.
   *
   * @throws SourceException naming what failed: {@link FailureReason#INVALID_URL}, {@link
   *     FailureReason#OCI_PULL_FAILED} (the download), {@link FailureReason#OCI_LAYER_FAILED} (a
   *     digest mismatch or a file that is not tar+gzip), {@link FailureReason#SIZE_LIMIT_EXCEEDED}
   */
  public StoredArtifact fetch(Wanted wanted, Duration timeout) {
    ReentrantLock lock = locks.computeIfAbsent(wanted.key(), k -> new ReentrantLock());
    lock.lock();
    try {
      return fetchLocked(wanted, timeout);
    } catch (IOException e) {
      throw new SourceException(
          FailureReason.STORAGE_FAILED,
          "cannot store the artifact (" + e.getClass().getSimpleName() + ")");
    } finally {
      lock.unlock();
    }
  }

  private StoredArtifact fetchLocked(Wanted wanted, Duration timeout) throws IOException {
    URI uri = checkedUrl(wanted.url());
    if (!ArtifactStore.isDigest(wanted.digest())) {
      throw new SourceException(
          FailureReason.OCI_LAYER_FAILED, "the artifact's digest is not sha256: and 64 hex digits");
    }
    String sourceId = ArtifactStore.sha256Hex(wanted.url() + "\n" + wanted.digest());
    Optional<StoredState> state = store.state(wanted.key());
    Optional<StoredArtifact> stored =
        state
            .filter(s -> s.sourceId().equals(sourceId) && s.revision().equals(wanted.revision()))
            .flatMap(store::artifactOf);
    if (stored.isPresent()) {
      return stored.get();
    }
    Path download = store.newTempDir();
    Path exported = store.newTempDir();
    try {
      Path file = download.resolve("artifact.tar.gz");
      Instant deadline = clock.instant().plus(timeout);
      String actual = download(uri, file, deadline);
      if (!actual.equals(wanted.digest())) {
        throw new SourceException(
            FailureReason.OCI_LAYER_FAILED,
            "the file at the artifact's URL has digest "
                + actual
                + ", not the artifact's "
                + wanted.digest());
      }
      LayerUnpacker.unpack(file, exported, limits, clock, deadline);
      String treeDigest = TreeFilter.filter(exported, "", "", clock, deadline);
      StoredState next =
          new StoredState(
              sourceId,
              wanted.digest(),
              wanted.revision(),
              treeDigest,
              clock.instant(),
              state.map(StoredState::digest).filter(d -> !d.equals(treeDigest)).orElse(null),
              Optional.empty(),
              List.of(),
              OciSource.metadata(wanted.metadata() == null ? Map.of() : wanted.metadata()));
      return store.publish(wanted.key(), exported, next);
    } finally {
      ArtifactStore.deleteQuietly(download);
      ArtifactStore.deleteQuietly(exported);
    }
  }

  private static URI checkedUrl(String url) {
    URI uri;
    try {
      uri = URI.create(url == null ? "" : url);
    } catch (IllegalArgumentException e) {
      throw new SourceException(FailureReason.INVALID_URL, "the artifact's URL is not a URL");
    }
    if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))
        || uri.getHost() == null
        || uri.getUserInfo() != null) {
      throw new SourceException(
          FailureReason.INVALID_URL,
          "the artifact's URL must be http(s)://host/path, without credentials");
    }
    return uri;
  }

  private String download(URI uri, Path file, Instant deadline) throws IOException {
    Duration left = Duration.between(clock.instant(), deadline);
    if (left.isNegative() || left.isZero()) {
      throw pullFailed("timed out");
    }
    HttpRequest request =
        HttpRequest.newBuilder(uri).timeout(left).header("User-Agent", "capstan").GET().build();
    HttpResponse<InputStream> response;
    try {
      // The request's timeout ends with the headers: the body is read within the deadline too.
      response = http.send(request, reads.handler(deadline, "timed out downloading the artifact"));
    } catch (HttpTimeoutException e) {
      throw pullFailed("timed out downloading the artifact");
    } catch (IOException e) {
      throw pullFailed("cannot download the artifact (" + e.getClass().getSimpleName() + ")");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw pullFailed("interrupted");
    }
    MessageDigest sha = Registry.sha256();
    try (InputStream in = new DigestInputStream(response.body(), sha);
        OutputStream out = Files.newOutputStream(file)) {
      if (response.statusCode() != 200) {
        throw pullFailed("the artifact's URL answered " + response.statusCode());
      }
      byte[] buffer = new byte[65536];
      long written = 0;
      int n;
      while ((n = in.read(buffer)) > 0) {
        written += n;
        if (written > sizeLimit) {
          throw new SourceException(
              FailureReason.SIZE_LIMIT_EXCEEDED,
              "the artifact is larger than the limit of " + sizeLimit + " bytes");
        }
        out.write(buffer, 0, n);
      }
    }
    return "sha256:" + HexFormat.of().formatHex(sha.digest());
  }

  private static SourceException pullFailed(String message) {
    return new SourceException(FailureReason.OCI_PULL_FAILED, message);
  }
}
