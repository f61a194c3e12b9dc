package dev.capstan.engine.pipeline;

import dev.capstan.api.common.ReconcileRequest;
import dev.capstan.api.common.ReconciledSpec;
import dev.capstan.api.source.SourceStatus;
import dev.capstan.engine.core.NamespacedName;
import dev.capstan.engine.shard.ShardGate;
import dev.capstan.engine.shard.WriteFence;
import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.store.FetchResult;
import dev.capstan.source.core.store.StoredArtifact;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.CustomResource;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One reconcile as every kind of source has it: its timings read first, one fetch, the fetch
 * observed, the status written, and the outcome. The kinds differ only in what their {@link
 * SourceKind} says: how they fetch and write their status.
 *
 * @param attempts told of each source looked at, so that what reads its artifact knows whether one
 *     missing from the store is still on its way (see {@link FetchAttempts})
 */
public record SourceFetch(
    Clock clock,
    PipelineObserver observer,
    FetchSlots slots,
    ShardGate shards,
    FetchAttempts attempts) {
  /** When a source whose namespace had no fetch slot free is reconciled again. */
  static final Duration NO_SLOT_RETRY = Duration.ofSeconds(2);

  /**
   * When a source fetched by a replica that does not own it, and whose status no replica has
   * written yet, is reconciled again: its slot may have had no owner yet (replicas own nothing
   * before their first claim), and the replica that holds it by then writes the status.
   */
  static final Duration UNWRITTEN_RETRY = Duration.ofSeconds(5);

  private static final Logger LOG = LoggerFactory.getLogger(SourceFetch.class);

  /** One engine that owns every source. */
  public SourceFetch(Clock clock, PipelineObserver observer, FetchSlots slots) {
    this(clock, observer, slots, ShardGate.everything(), new FetchAttempts(clock));
  }

  /**
   * One reconcile of {@code source}: while suspended only counted, else its timings read, one fetch
   * and its status written.
   */
  public <R extends CustomResource<? extends ReconciledSpec, ?>> Outcome reconcile(
      SourceKind<R> kind, R source) {
    Outcome outcome;
    // The owner holds the source's slot from before the fetch until after the status write, so
    // that the slot is not handed over between the two.
    Optional<ShardGate.Pass> owned = shards.hold(source);
    try {
      if (kind.suspended(source)) {
        attempts.ended(kind.kind(), NamespacedName.of(source), Optional.empty()); // none to come
        outcome = Outcome.suspended();
      } else {
        outcome = fetchInSlot(kind, source, owned.isPresent());
      }
    } finally {
      owned.ifPresent(ShardGate.Pass::close);
    }
    observer.reconciled(kind.kind(), NamespacedName.of(source), outcome.kind());
    return outcome;
  }

  private <R extends CustomResource<? extends ReconciledSpec, ?>> Outcome fetchInSlot(
      SourceKind<R> kind, R source, boolean owner) {
    SourceTimings read;
    try {
      read = kind.timings(source);
    } catch (IllegalArgumentException e) {
      // Checked before any fetch: an interval of 0s would otherwise fetch in a loop.
      write(
          kind,
          source,
          owner,
          new FetchResult.Failed(
              FailureReason.INVALID_SPEC, e.getMessage(), kind.lastArtifact(source)));
      attempts.ended(kind.kind(), NamespacedName.of(source), Optional.empty());
      return Outcome.terminal();
    }
    String namespace = source.getMetadata().getNamespace();
    Optional<FetchSlots.Slot> slot = slots.tryTake(namespace);
    if (slot.isEmpty()) {
      // Nothing written: the status says what the last fetch found until this one runs.
      LOG.debug("{}: every fetch slot of namespace {} is taken", kind.kind(), namespace);
      return Outcome.waiting(NO_SLOT_RETRY);
    }
    try (FetchSlots.Slot taken = slot.get()) {
      return fetchAndWrite(kind, source, read, owner);
    }
  }

  private <R extends CustomResource<? extends ReconciledSpec, ?>> Outcome fetchAndWrite(
      SourceKind<R> kind, R source, SourceTimings read, boolean owner) {
    Instant started = clock.instant();
    NamespacedName key = NamespacedName.of(source);
    FetchResult result;
    try {
      // See StackGuard: running out of stack is an Error no caller handles. INVALID_SPEC needs a
      // change of the spec or the content, so the outcome is terminal (Stalled), never retried.
      result =
          StackGuard.orElse(
              () -> kind.fetch(source, read),
              () ->
                  new FetchResult.Failed(
                      FailureReason.INVALID_SPEC,
                      "the " + kind.kind() + " or its content nests too deeply to be processed",
                      kind.lastArtifact(source)));
    } catch (RuntimeException e) {
      attempts.ended(kind.kind(), key, Optional.empty()); // nothing stored, nothing to wait for
      throw e;
    }
    observer.fetched(
        key, !(result instanceof FetchResult.Failed), Duration.between(started, clock.instant()));
    if (!waitsForAnother(result)) {
      attempts.ended(kind.kind(), key, storedDigest(result)); // before the status write wakes any
    }
    write(kind, source, owner, result);
    if (result instanceof FetchResult.Failed failed) {
      return failed.reason().needsSpecChange()
          ? Outcome.terminal()
          : Outcome.retry(read.interval());
    }
    if (!owner && kind.lastArtifact(source).isEmpty()) {
      return Outcome.waiting(UNWRITTEN_RETRY);
    }
    return Outcome.succeeded(read.interval());
  }

  /**
   * The status is written by the replica that owns the source; another replica fetched only to have
   * the artifact in its own store for the Kustomizations it owns, and says so to them. So does the
   * owner when it stored again the artifact its status already names (its store was empty after a
   * restart): the status write changes no revision, so nothing else wakes what waits for it.
   */
  private <R extends CustomResource<? extends ReconciledSpec, ?>> void write(
      SourceKind<R> kind, R source, boolean owner, FetchResult result) {
    if (owner) {
      boolean storedAgain = storedAgain(result, statusDigest(source));
      try {
        kind.writeStatus(source, result);
      } catch (WriteFence.Refused e) {
        // lost while fetching: the artifact is in this store, the status is the new owner's
        LOG.info("{}: status not written: {}", kind.kind(), e.getMessage());
      }
      if (storedAgain) {
        shards.storedHere(kind.kind(), NamespacedName.of(source));
      }
    } else if (result instanceof FetchResult.Fetched) {
      // an unchanged fetch stored nothing: what waited for this artifact was told when it was
      shards.storedHere(kind.kind(), NamespacedName.of(source));
    }
  }

  /** The digest of the artifact {@code result} left in the store; empty for a failure. */
  private static Optional<String> storedDigest(FetchResult result) {
    // a failure's artifact() is the last good one, which this look did not store
    return result instanceof FetchResult.Failed
        ? Optional.empty()
        : result.artifact().map(StoredArtifact::digest);
  }

  /**
   * A fetch that failed only because a source it includes is not in the store yet (as after a
   * restart): its look is not over, that source's fetch brings it again.
   */
  private static boolean waitsForAnother(FetchResult result) {
    return result instanceof FetchResult.Failed failed
        && failed.reason() == FailureReason.INCLUDE_UNAVAILABLE;
  }

  /**
   * Whether {@code result} published the very artifact the status (as read before the fetch)
   * already named: stored again, as after a restart on an empty store, and not a new one.
   */
  static boolean storedAgain(FetchResult result, Optional<String> statusDigest) {
    return result instanceof FetchResult.Fetched fetched
        && statusDigest.filter(d -> d.equals(fetched.current().digest())).isPresent();
  }

  /** The digest of the artifact {@code source}'s status names, if any. */
  private static Optional<String> statusDigest(CustomResource<?, ?> source) {
    return source.getStatus() instanceof SourceStatus status && status.artifact() != null
        ? Optional.ofNullable(status.artifact().digest())
        : Optional.empty();
  }

  /** The source's metadata.generation, 0 when unset. */
  public static long generation(HasMetadata source) {
    Long generation = source.getMetadata().getGeneration();
    return generation == null ? 0 : generation;
  }

  /** The reconcile request now handled: the annotation's value, else the one handled before. */
  public static String handledRequestedAt(HasMetadata source, String handledBefore) {
    String requestedAt =
        source.getMetadata().getAnnotations() == null
            ? null
            : source.getMetadata().getAnnotations().get(ReconcileRequest.ANNOTATION);
    return requestedAt != null ? requestedAt : handledBefore;
  }
}
