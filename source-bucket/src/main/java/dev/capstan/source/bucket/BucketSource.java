package dev.capstan.source.bucket;

import dev.capstan.source.core.BoundedBody;
import dev.capstan.source.core.Deadline;
import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.ReadDeadlines;
import dev.capstan.source.core.Redaction;
import dev.capstan.source.core.SourceException;
import dev.capstan.source.core.ignore.IgnoreRules;
import dev.capstan.source.core.store.ArtifactStore;
import dev.capstan.source.core.store.FetchResult;
import dev.capstan.source.core.store.StoredArtifact;
import dev.capstan.source.core.store.StoredState;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fetches an S3-compatible bucket (a Bucket of provider {@code generic}) into the artifact store
 * shared with the other sources. The bucket is listed; the root's {@code .sourceignore} and {@code
 * spec.ignore} leave objects out; the revision is the digest of the kept objects' keys and ETags,
 * as Flux computes it. When it is the stored artifact's revision nothing is downloaded: an
 * unchanged bucket costs one listing. Otherwise the objects are downloaded, a few at once and
 * bounded ({@link BucketLimits}), into a new tree that is published atomically. A failure stores
 * nothing and keeps the last good artifact; messages never hold a credential.
 */
public final class BucketSource {
  private static final Logger LOG = LoggerFactory.getLogger(BucketSource.class);

  /** A {@code .sourceignore} larger than this is not read. */
  static final long MAX_SOURCE_IGNORE_BYTES = 1 << 20;

  private final ArtifactStore store;
  private final Clock clock;
  private final BucketLimits limits;
  private final ReadDeadlines reads;
  private final BucketClients clients = new BucketClients();
  private final ObjectDownloads downloads;

  public BucketSource(ArtifactStore store, Clock clock, BucketLimits limits) {
    this(store, clock, limits, ReadDeadlines.withOwnThread(clock));
  }

  public BucketSource(ArtifactStore store, Clock clock, BucketLimits limits, ReadDeadlines reads) {
    this.store = store;
    this.clock = clock;
    this.limits = limits;
    this.reads = reads;
    this.downloads = new ObjectDownloads(limits);
  }

  /** The artifact last stored for {@code key}, if it is still in the store. */
  public Optional<StoredArtifact> lastArtifact(String key) {
    return store.state(key).flatMap(store::artifactOf);
  }

  /** Forgets a Bucket that was deleted: its state, and its artifact unless shared. */
  public void forget(String key) throws IOException {
    store.forget(key);
  }

  public FetchResult fetch(BucketRequest request) {
    String key = request.target().key();
    Optional<StoredState> previous = store.state(key);
    Optional<StoredArtifact> last = previous.flatMap(store::artifactOf);
    try {
      return fetch(request, previous, last);
    } catch (SourceException e) {
      return new FetchResult.Failed(e.reason(), scrubbed(e.getMessage(), request), last);
    } catch (IOException e) {
      LOG.warn("storing the objects of {} failed", key, e);
      return new FetchResult.Failed(
          FailureReason.STORAGE_FAILED,
          "storing the objects failed: " + e.getClass().getSimpleName(),
          last);
    }
  }

  private FetchResult fetch(
      BucketRequest request, Optional<StoredState> previous, Optional<StoredArtifact> last)
      throws IOException {
    S3Endpoint.checkBucketName(request.bucketName());
    S3Endpoint endpoint = S3Endpoint.parse(request.target().url(), request.insecure());
    ProxyCredentials.check(request.target().proxy(), endpoint);
    Instant deadline = clock.instant().plus(request.target().timeout());
    S3Client s3 =
        new S3Client(
            clients.client(request.certSecret(), request.target().proxy()),
            reads,
            clock,
            endpoint,
            request.bucketName(),
            signer(request),
            deadline);
    List<ListingParser.Listed> listed = s3.list(request.prefix(), limits.maxObjects());
    SourceIgnore sourceIgnore = SourceIgnore.read(s3, listed, request.prefix(), previous, last);
    IgnoreRules rules =
        IgnoreRules.root(request.target().ignore(), "", new Deadline(clock, deadline))
            .enter("", sourceIgnore.content());
    ObjectIndex index = ObjectIndex.of(listed, rules, limits.maxKeyLength());
    String revision = index.revision();
    String sourceId = sourceId(request, endpoint);
    if (last.isPresent()
        && previous.get().sourceId().equals(sourceId)
        && previous.get().revision().equals(revision)) {
      return new FetchResult.Unchanged(last.get());
    }
    downloads.checkListedSizes(index);
    Path dir = store.newTempDir();
    try {
      String digest = downloads.download(s3, index, dir, sourceIgnore.asFile());
      StoredState next =
          new StoredState(sourceId, sourceIgnore.etag(), revision, digest, clock.instant(), null)
              .after(previous);
      StoredArtifact artifact = store.publish(request.target().key(), dir, next);
      boolean same = last.map(a -> a.revision().equals(revision)).orElse(false);
      return same ? new FetchResult.Unchanged(artifact) : new FetchResult.Fetched(artifact);
    } catch (IOException | RuntimeException e) {
      ArtifactStore.deleteQuietly(dir);
      throw e;
    }
  }

  /** The requests' signer, or null for anonymous requests when the Bucket names no Secret. */
  private static SigV4 signer(BucketRequest request) {
    Map<String, byte[]> data = request.credentials();
    byte[] access = data.get("accesskey");
    byte[] secret = data.get("secretkey");
    if (data.isEmpty()) {
      return null;
    }
    if (access == null || secret == null || access.length == 0 || secret.length == 0) {
      throw new SourceException(
          FailureReason.INVALID_SECRET, "the secret must hold both 'accesskey' and 'secretkey'");
    }
    return new SigV4(
        new String(access, StandardCharsets.UTF_8).strip(),
        new String(secret, StandardCharsets.UTF_8).strip().getBytes(StandardCharsets.UTF_8),
        request.region());
  }

  /** What the stored revision was computed from; another endpoint, bucket or rules fetch anew. */
  private static String sourceId(BucketRequest request, S3Endpoint endpoint) {
    return ArtifactStore.sha256Hex(
        endpoint.scheme()
            + "://"
            + endpoint.host()
            + "/"
            + request.bucketName()
            + "\n"
            + request.prefix()
            + "\n"
            + request.target().ignore());
  }

  /** A message without the request's credentials, whatever a server echoed. */
  private static String scrubbed(String message, BucketRequest request) {
    List<byte[]> values = new ArrayList<>(request.credentials().values());
    values.addAll(request.target().proxyCredentials());
    return Redaction.scrub(message, Redaction.textOf(values));
  }

  /**
   * The bucket root's {@code .sourceignore}: its ETag ({@code ""} when there is none) and content.
   * Listed (no prefix, or one it matches): read only when its ETag is not the one stored with the
   * artifact, else taken from the artifact. Under a prefix that leaves it out: one GET.
   */
  private record SourceIgnore(String etag, byte[] content) {
    static final SourceIgnore NONE = new SourceIgnore("", null);

    static SourceIgnore read(
        S3Client s3,
        List<ListingParser.Listed> listed,
        String prefix,
        Optional<StoredState> previous,
        Optional<StoredArtifact> last)
        throws IOException {
      String name = IgnoreRules.SOURCE_IGNORE;
      if (name.startsWith(prefix)) {
        Optional<ListingParser.Listed> entry =
            listed.stream().filter(o -> o.key().equals(name)).findFirst();
        if (entry.isEmpty()) {
          return NONE;
        }
        String etag = entry.get().etag();
        Path kept = last.map(a -> a.path().resolve(name)).orElse(null);
        if (previous.isPresent()
            && etag.equals(previous.get().remoteId())
            && kept != null
            && Files.isRegularFile(kept)) {
          return new SourceIgnore(etag, Files.readAllBytes(kept));
        }
        return downloaded(s3, etag);
      }
      return downloaded(s3, "");
    }

    private static SourceIgnore downloaded(S3Client s3, String etag) throws IOException {
      Optional<InputStream> body = s3.get(IgnoreRules.SOURCE_IGNORE);
      if (body.isEmpty()) {
        return NONE;
      }
      try (InputStream in = body.get()) {
        byte[] content =
            BoundedBody.readAll(
                in,
                MAX_SOURCE_IGNORE_BYTES,
                () ->
                    new SourceException(
                        FailureReason.SIZE_LIMIT_EXCEEDED,
                        "the bucket's .sourceignore is larger than "
                            + MAX_SOURCE_IGNORE_BYTES
                            + " bytes"));
        return new SourceIgnore(etag, content);
      }
    }

    /** The file the artifact keeps at its root, as Flux's artifact keeps it. */
    Map<String, byte[]> asFile() {
      return content == null ? Map.of() : Map.of(IgnoreRules.SOURCE_IGNORE, content);
    }
  }
}
