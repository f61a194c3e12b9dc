package dev.capstan.source.oci;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.ReadDeadlines;
import dev.capstan.source.core.SourceException;
import dev.capstan.source.core.store.ArtifactStore;
import dev.capstan.source.core.store.StoredArtifact;
import dev.capstan.source.core.store.StoredState;
import dev.capstan.source.core.store.TreeFilter;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The artifacts of ExternalArtifacts: a tar+gzip file another controller serves at the URL its
 * status names, downloaded when the engine's {@link ArtifactUrlPolicy} allows that URL (bounded in
 * size and time, the body's every byte within the deadline, no credentials sent, no redirect
 * followed, no proxy), checked against the status's sha256 digest, unpacked with the same bounds as
 * an OCI layer and stored in the shared artifact store. The same URL and digest are not downloaded
 * again.
 *
 * <p>Whoever writes the status chooses the URL, so a failed download says no more than that it
 * failed: not the status the server answered, not what went wrong on the connection, not the digest
 * of what came, which together would make the engine a scanner of what it can reach that reports
 * what it found. Those details go to the debug log.
 */
public final class ArtifactDownloads {
  private static final Logger LOG = LoggerFactory.getLogger(ArtifactDownloads.class);

  /** The one message of a download that failed, whatever failed. */
  static final String DOWNLOAD_FAILED =
      "the artifact could not be downloaded from its URL with the digest its status names";

  private final ArtifactStore store;
  private final Clock clock;
  private final long sizeLimit;
  private final LayerUnpacker.Limits limits;
  private final ArtifactUrlPolicy policy;
  private final ArtifactUrlPolicy.Resolver resolver;
  private final HttpClient http;
  private final ReadDeadlines reads;
  private final Map<String, ReentrantLock> locks = new ConcurrentHashMap<>();

  public ArtifactDownloads(
      ArtifactStore store,
      Clock clock,
      long sizeLimit,
      LayerUnpacker.Limits limits,
      ArtifactUrlPolicy policy) {
    this(store, clock, sizeLimit, limits, policy, ReadDeadlines.withOwnThread(clock));
  }

  /** As above, with the deadlines of an OCI source's reads, whose one thread both then share. */
  public ArtifactDownloads(
      ArtifactStore store,
      Clock clock,
      long sizeLimit,
      LayerUnpacker.Limits limits,
      ArtifactUrlPolicy policy,
      ReadDeadlines reads) {
    this(store, clock, sizeLimit, limits, policy, ArtifactUrlPolicy.Resolver.SYSTEM, reads);
  }

  ArtifactDownloads(
      ArtifactStore store,
      Clock clock,
      long sizeLimit,
      LayerUnpacker.Limits limits,
      ArtifactUrlPolicy policy,
      ArtifactUrlPolicy.Resolver resolver,
      ReadDeadlines reads) {
    this.store = store;
    this.clock = clock;
    this.sizeLimit = sizeLimit;
    this.limits = limits;
    this.policy = policy;
    this.resolver = resolver;
    this.reads = reads;
    this.http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(30))
            .followRedirects(HttpClient.Redirect.NEVER)
            // the address the policy judged is the one connected to, not a proxy's
            .proxy(HttpClient.Builder.NO_PROXY)
            .build();
  }

  /** One artifact to have: where it is served, its digest and its revision. */
  public record Wanted(
      String key, String url, String digest, String revision, Map<String, String> metadata) {}

  /**
   * The stored tree of {@code wanted}, downloaded now unless the store already has it.
   *
   * @throws SourceException naming what failed: {@link FailureReason#INVALID_URL} (not an http(s)
   *     URL, or one the policy refuses), {@link FailureReason#OCI_PULL_FAILED} (the download
   *     failed, was too large or does not match the digest: {@link #DOWNLOAD_FAILED}), {@link
   *     FailureReason#OCI_LAYER_FAILED} (a file with the digest that is not tar+gzip)
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
    if (!ArtifactStore.isDigest(wanted.digest())) {
      throw new SourceException(
          FailureReason.OCI_LAYER_FAILED, "the artifact's digest is not sha256: and 64 hex digits");
    }
    // Also before the store is looked at: a URL the engine now refuses is not used from there.
    URI uri = allowed(wanted);
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
      String actual;
      try {
        actual = download(uri, file, deadline);
      } catch (Failed e) {
        throw failed(wanted, e.getMessage());
      }
      if (!actual.equals(wanted.digest())) {
        throw failed(wanted, "the file has digest " + actual);
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

  /** The URL to request, when the policy allows it; a host that is not found is a failure. */
  private URI allowed(Wanted wanted) {
    try {
      return policy.check(wanted.url(), resolver);
    } catch (UnknownHostException e) {
      throw failed(wanted, "its host is not found");
    }
  }

  /**
   * Streams the body of {@code uri} into {@code file} and returns its digest.
   *
   * @throws Failed saying what went wrong, for the debug log only
   */
  private String download(URI uri, Path file, Instant deadline) throws IOException {
    Duration left = Duration.between(clock.instant(), deadline);
    if (left.isNegative() || left.isZero()) {
      throw new Failed("timed out before the request");
    }
    HttpRequest request =
        HttpRequest.newBuilder(uri).timeout(left).header("User-Agent", "capstan").GET().build();
    HttpResponse<InputStream> response;
    try {
      // The request's timeout ends with the headers: the body is read within the deadline too.
      response =
          http.send(
              request,
              reads.handler(
                  deadline, FailureReason.OCI_PULL_FAILED, "timed out downloading the artifact"));
    } catch (IOException e) {
      throw new Failed("the request failed (" + e.getClass().getSimpleName() + ")");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new Failed("interrupted");
    }
    MessageDigest sha = Registry.sha256();
    try (InputStream in = new DigestInputStream(response.body(), sha);
        OutputStream out = Files.newOutputStream(file)) {
      if (response.statusCode() != 200) {
        throw new Failed("the server answered " + response.statusCode());
      }
      byte[] buffer = new byte[65536];
      long written = 0;
      int n;
      while ((n = read(in, buffer)) > 0) {
        written += n;
        if (written > sizeLimit) {
          throw new Failed("the file is larger than the limit of " + sizeLimit + " bytes");
        }
        out.write(buffer, 0, n);
      }
    }
    return "sha256:" + HexFormat.of().formatHex(sha.digest());
  }

  private static int read(InputStream in, byte[] buffer) {
    try {
      return in.read(buffer);
    } catch (IOException e) {
      throw new Failed("reading the file failed (" + e.getClass().getSimpleName() + ")");
    }
  }

  /**
   * The one failure a tenant sees; {@code detail} (a status, an exception's class, a digest) goes
   * to the debug log with the URL without its query, which may carry a token.
   */
  private static SourceException failed(Wanted wanted, String detail) {
    if (LOG.isDebugEnabled()) {
      String where;
      try {
        where = ArtifactUrl.parse(wanted.url()).withoutQuery();
      } catch (SourceException e) {
        where = "(not a URL)";
      }
      LOG.debug("{}: downloading {} failed: {}", wanted.key(), where, detail);
    }
    return new SourceException(FailureReason.OCI_PULL_FAILED, DOWNLOAD_FAILED);
  }

  /** A download that failed, its detail for the log. */
  private static final class Failed extends RuntimeException {
    Failed(String detail) {
      super(detail, null, false, false);
    }
  }
}
