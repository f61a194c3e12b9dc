package dev.capstan.engine.source;

import dev.capstan.api.source.Bucket;
import dev.capstan.api.source.BucketSpec;
import dev.capstan.api.source.BucketStatus;
import dev.capstan.engine.pipeline.SourceFetch;
import dev.capstan.engine.pipeline.SourceKind;
import dev.capstan.engine.pipeline.SourceTimings;
import dev.capstan.source.bucket.BucketSource;
import dev.capstan.source.core.status.SourceStatus;
import dev.capstan.source.core.status.SourceStatuses;
import dev.capstan.source.core.store.FetchResult;
import dev.capstan.source.core.store.StoredArtifact;
import java.io.IOException;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a Bucket adds to a source's reconcile ({@link SourceFetch}): its objects fetched into the
 * store, its status written. Knows nothing of the controller framework that calls it.
 */
public final class BucketPipeline implements SourceKind<Bucket> {
  private static final Logger LOG = LoggerFactory.getLogger(BucketPipeline.class);

  private final SourcePipelineParts parts;
  private final BucketSource source;

  public BucketPipeline(SourcePipelineParts parts, BucketSource source) {
    this.parts = parts;
    this.source = source;
  }

  /** The artifact store's key of a Bucket: apart from every other kind's. */
  public static String key(Bucket bucket) {
    return "bucket/" + bucket.getMetadata().getNamespace() + "/" + bucket.getMetadata().getName();
  }

  @Override
  public String kind() {
    return "Bucket";
  }

  @Override
  public SourceTimings timings(Bucket bucket) {
    BucketSpec spec = bucket.getSpec();
    return SourceTimings.of(spec.interval(), spec.timeout());
  }

  @Override
  public Optional<StoredArtifact> lastArtifact(Bucket bucket) {
    return source.lastArtifact(key(bucket));
  }

  @Override
  public FetchResult fetch(Bucket bucket, SourceTimings timings) {
    return SourcePipelineParts.fetch(
        () -> BucketRequests.of(parts.client(), bucket, key(bucket), timings.timeout()),
        source::fetch,
        () -> lastArtifact(bucket));
  }

  @Override
  public void writeStatus(Bucket bucket, FetchResult result) {
    SourceStatus next =
        SourceStatuses.next(
            previous(bucket), SourceFetch.generation(bucket), result, parts.clock().instant());
    BucketStatus before = bucket.getStatus();
    parts
        .statuses()
        .write(
            bucket,
            ApiSourceStatuses.bucketStatus(
                next,
                result instanceof FetchResult.Failed
                    ? (before == null ? null : before.observedIgnore())
                    : bucket.getSpec().ignore(),
                SourceFetch.handledRequestedAt(
                    bucket, before == null ? null : before.lastHandledReconcileAt())));
  }

  /** A Bucket was deleted: its stored objects go with it. */
  @Override
  public void deleted(Bucket bucket) {
    try {
      source.forget(key(bucket));
    } catch (IOException e) {
      // Left for the store's next collection; nothing reads a forgotten key's state.
      LOG.warn("could not forget the stored objects of {}: {}", key(bucket), e.toString());
    }
    parts.statuses().forget(bucket);
  }

  private static SourceStatus previous(Bucket bucket) {
    BucketStatus status = bucket.getStatus();
    return status == null
        ? SourceStatus.empty()
        : ApiSourceStatuses.fromApi(
            status.observedGeneration(), status.conditions(), status.artifact());
  }
}
