package dev.capstan.engine.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.capstan.api.source.GitRepository;
import dev.capstan.engine.shard.ShardGate;
import dev.capstan.engine.shard.ShardOptions;
import dev.capstan.sharding.ShardKey;
import dev.capstan.sharding.SlotSpace;
import dev.capstan.source.core.store.FetchResult;
import dev.capstan.source.core.store.StoredArtifact;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A replica that fetched a source it does not own writes no status; while no replica has written
 * one, it looks again soon, so that the replica that holds the source's slot by then writes it
 * (before their first claim, replicas own nothing, and each fetches the source it needs).
 */
class SourceFetchOwnerTest {
  private static final StoredArtifact ARTIFACT =
      new StoredArtifact("main@sha1:abc", "sha256:" + "0".repeat(64), null, null, null, null, null);

  private final AtomicInteger written = new AtomicInteger();
  // a gate that has claimed nothing yet: it owns no source
  private final ShardGate noClaimYet =
      ShardGate.of(
          new ShardOptions(
              "a",
              null,
              null,
              ShardKey.UID,
              Duration.ofSeconds(10),
              Duration.ofSeconds(2),
              new SlotSpace(1)),
          System::nanoTime);
  private final SourceFetch fetches =
      new SourceFetch(Clock.systemUTC(), PipelineObserver.NONE, new FetchSlots(4), noClaimYet);

  @Test
  void aSourceWhoseStatusNoReplicaWroteIsLookedAtAgainSoon() {
    Outcome outcome = fetches.reconcile(kind(Optional.empty()), source());

    assertEquals(0, written.get(), "not the owner: no status written");
    assertEquals(Outcome.waiting(SourceFetch.UNWRITTEN_RETRY), outcome);
  }

  @Test
  void aSourceWhoseOwnerWroteItsStatusComesBackAtItsInterval() {
    Outcome outcome = fetches.reconcile(kind(Optional.of(ARTIFACT)), source());

    assertEquals(0, written.get());
    assertEquals(Outcome.succeeded(Duration.ofMinutes(1)), outcome);
  }

  private SourceKind<GitRepository> kind(Optional<StoredArtifact> inStatus) {
    return FakeGitSources.kind(
        () -> new FetchResult.Unchanged(ARTIFACT), inStatus, written::incrementAndGet);
  }

  private static GitRepository source() {
    return FakeGitSources.source("team", false);
  }
}
