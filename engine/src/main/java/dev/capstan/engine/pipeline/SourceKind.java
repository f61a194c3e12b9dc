package dev.capstan.engine.pipeline;

import dev.capstan.api.common.ReconciledSpec;
import dev.capstan.source.core.store.FetchResult;
import dev.capstan.source.core.store.StoredArtifact;
import io.fabric8.kubernetes.client.CustomResource;
import java.util.Optional;

/**
 * What one kind of source adds to the reconcile every kind shares ({@link SourceFetch}): how its
 * spec is read, how it fetches and how it writes its status.
 *
 * @param <R> the source's API type
 */
public interface SourceKind<R extends CustomResource<? extends ReconciledSpec, ?>> {
  /** The kind's name, for counts and messages. */
  String kind();

  /** {@code spec.suspend}; a source without a spec is not fetched either. */
  default boolean suspended(R source) {
    return source.getSpec() == null || source.getSpec().suspended();
  }

  /** The spec's interval and timeout; IllegalArgumentException when unreadable. */
  SourceTimings timings(R source);

  /** One fetch with those timings. */
  FetchResult fetch(R source, SourceTimings timings);

  /** The artifact a failure keeps. */
  Optional<StoredArtifact> lastArtifact(R source);

  void writeStatus(R source, FetchResult result);

  /**
   * A deleted source's stored artifact forgotten; nothing by default, for the kinds whose deletion
   * the controller is not told of.
   */
  default void deleted(R source) {}
}
