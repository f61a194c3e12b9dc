package dev.capstan.engine.source;

import dev.capstan.engine.pipeline.FetchAttempts;
import dev.capstan.engine.pipeline.FetchSlots;
import dev.capstan.engine.pipeline.PipelineObserver;
import dev.capstan.engine.pipeline.SourceFetch;
import dev.capstan.engine.shard.ShardGate;
import dev.capstan.engine.status.StatusWriter;
import dev.capstan.source.core.store.FetchResult;
import dev.capstan.source.core.store.StoredArtifact;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * What every kind of source's pipeline is built from: the client its spec's Secrets are read with,
 * the status writer, the clock of its status times and the one fetch step the kinds share.
 */
public record SourcePipelineParts(
    KubernetesClient client, StatusWriter statuses, Clock clock, SourceFetch fetches) {

  public SourcePipelineParts(
      KubernetesClient client,
      StatusWriter statuses,
      Clock clock,
      PipelineObserver observer,
      FetchSlots slots,
      ShardGate shards,
      FetchAttempts attempts) {
    this(client, statuses, clock, new SourceFetch(clock, observer, slots, shards, attempts));
  }

  /**
   * The fetch of the request a spec asks for; when an input the spec names is unavailable, a
   * failure that keeps the last artifact, with no fetch attempted.
   */
  static <R> FetchResult fetch(
      Supplier<R> request,
      Function<R, FetchResult> fetch,
      Supplier<Optional<StoredArtifact>> lastGood) {
    R asked;
    try {
      asked = request.get();
    } catch (SourceInputs.Unavailable e) {
      return new FetchResult.Failed(e.reason(), e.getMessage(), lastGood.get());
    }
    return fetch.apply(asked);
  }
}
