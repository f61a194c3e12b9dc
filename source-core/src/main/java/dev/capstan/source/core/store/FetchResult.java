package dev.capstan.source.core.store;

import dev.capstan.source.core.FailureReason;
import java.util.Optional;

/** The outcome of a source's fetch, whatever kind of source (Git, OCI) it is. */
public sealed interface FetchResult {

  /** The artifact to use now: the new one, the unchanged one, or the last good one on failure. */
  Optional<StoredArtifact> artifact();

  /** A new revision or new ignore rules produced a newly published artifact. */
  record Fetched(StoredArtifact current) implements FetchResult {
    @Override
    public Optional<StoredArtifact> artifact() {
      return Optional.of(current);
    }
  }

  /** The remote ref still points at the stored revision; nothing was fetched or written. */
  record Unchanged(StoredArtifact current) implements FetchResult {
    @Override
    public Optional<StoredArtifact> artifact() {
      return Optional.of(current);
    }
  }

  /**
   * The fetch failed; the last good artifact (if any) is untouched and still readable.
   *
   * @param message says what failed and where; holds no credentials
   */
  record Failed(FailureReason reason, String message, Optional<StoredArtifact> lastGood)
      implements FetchResult {
    @Override
    public Optional<StoredArtifact> artifact() {
      return lastGood;
    }
  }
}
