package dev.capstan.engine.pipeline;

import dev.capstan.source.core.store.FetchResult;
import dev.capstan.source.core.store.StoredArtifact;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Optional;

/**
 * What one kind of source adds to the reconcile every kind shares ({@link SourceFetch}): how its
 * spec is read, how it fetches and how it writes its status.
 *
 * @param <R> the source's API type
 */
public interface SourceKind<R extends HasMetadata> {
  /** The kind's name, for counts and messages. */
  String kind();

  boolean suspended(R source);

  /** The spec's interval and timeout; IllegalArgumentException when unreadable. */
  SourceTimings timings(R source);

  /** One fetch with those timings. */
  FetchResult fetch(R source, SourceTimings timings);

  /** The artifact a failure keeps. */
  Optional<StoredArtifact> lastArtifact(R source);

  void writeStatus(R source, FetchResult result);
}
