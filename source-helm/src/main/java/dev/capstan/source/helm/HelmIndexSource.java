package dev.capstan.source.helm;

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
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Downloads a Helm repository's index.yaml into the artifact store shared with the other sources:
 * read as a stream, checked and bounded ({@link IndexLimits}), stored in a compact, sorted form
 * whose sha256 digest is the artifact's revision. An index the server says is unchanged (304 to the
 * previous download's ETag or Last-Modified) is neither read nor parsed. A failure stores nothing
 * and keeps the last good artifact.
 */
public final class HelmIndexSource {
  private static final Logger LOG = LoggerFactory.getLogger(HelmIndexSource.class);

  private final ArtifactStore store;
  private final Clock clock;
  private final IndexParser parser;
  private final RepositoryDownload download;

  public HelmIndexSource(ArtifactStore store, Clock clock, IndexLimits limits) {
    this(store, clock, limits, ReadDeadlines.withOwnThread(clock));
  }

  public HelmIndexSource(
      ArtifactStore store, Clock clock, IndexLimits limits, ReadDeadlines reads) {
    this.store = store;
    this.clock = clock;
    this.parser = new IndexParser(limits);
    this.download =
        new RepositoryDownload(
            new HttpClients(),
            reads,
            clock,
            new RepositoryDownload.Kind(
                "index.yaml",
                "the bound of an index",
                FailureReason.INDEX_FETCH_FAILED,
                limits.maxBytes()));
  }

  /** The artifact last stored for {@code key}, if it is still in the store. */
  public Optional<StoredArtifact> lastArtifact(String key) {
    return store.state(key).flatMap(store::artifactOf);
  }

  /** The stored index of an artifact this source made. */
  public static Path indexFile(StoredArtifact artifact) {
    return artifact.path().resolve(IndexWriter.FILE);
  }

  /** Forgets a repository that was deleted: its state, and its artifact unless shared. */
  public void forget(String key) throws IOException {
    store.forget(key);
  }

  public FetchResult fetch(HelmIndexRequest request) {
    String key = request.target().key();
    Optional<StoredState> previous = store.state(key);
    Optional<StoredArtifact> last = previous.flatMap(store::artifactOf);
    try {
      Instant deadline = clock.instant().plus(request.target().timeout());
      String sourceId = ArtifactStore.sha256Hex(request.target().url());
      Validators validators =
          last.isPresent() && previous.get().sourceId().equals(sourceId)
              ? Validators.decode(previous.get().remoteId())
              : Validators.NONE;
      RepositoryDownload.Answer answer = download.get(request, validators, deadline);
      if (answer instanceof RepositoryDownload.Body body) {
        try (InputStream in = body.in()) {
          return stored(key, sourceId, in, body.validators(), previous, last);
        }
      }
      return new FetchResult.Unchanged(last.orElseThrow());
    } catch (SourceException e) {
      return new FetchResult.Failed(e.reason(), scrubbed(e.getMessage(), request), last);
    } catch (IOException e) {
      LOG.warn("storing the index of {} failed", key, e);
      return new FetchResult.Failed(
          FailureReason.STORAGE_FAILED,
          "storing the index failed: " + e.getClass().getSimpleName(),
          last);
    }
  }

  private FetchResult stored(
      String key,
      String sourceId,
      InputStream body,
      Validators validators,
      Optional<StoredState> previous,
      Optional<StoredArtifact> last)
      throws IOException {
    ParsedIndex index = parser.parse(body, chart -> true);
    Path dir = store.newTempDir();
    try {
      String digest = IndexWriter.write(index, dir.resolve(IndexWriter.FILE));
      StoredState next =
          new StoredState(sourceId, validators.encode(), digest, digest, clock.instant(), null)
              .after(previous);
      StoredArtifact artifact = store.publish(key, dir, next);
      boolean same = last.map(a -> a.digest().equals(digest)).orElse(false);
      return same ? new FetchResult.Unchanged(artifact) : new FetchResult.Fetched(artifact);
    } catch (IOException | RuntimeException e) {
      ArtifactStore.deleteQuietly(dir);
      throw e;
    }
  }

  /** A message without the request's credentials, whatever a server echoed. */
  private static String scrubbed(String message, HelmIndexRequest request) {
    List<byte[]> values = new ArrayList<>(request.credentials().values());
    return Redaction.scrub(message, Redaction.textOf(values));
  }
}
