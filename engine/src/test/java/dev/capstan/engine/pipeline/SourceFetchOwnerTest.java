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
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * A replica that fetched a source it does not own writes no status; while no replica has written
 * one, it looks again soon, so that the replica that holds the source's slot by then writes it
 * (before their first claim, replicas own nothing, and each fetches the source it needs). An owner
 * that stored again the artifact its status already names tells what waits for it.
 */
class SourceFetchOwnerTest {
  private static final StoredArtifact ARTIFACT =
      new StoredArtifact("main@sha1:abc", "sha256:" + "0".repeat(64), null, null, null, null, null);
  private static final StoredArtifact OTHER =
      new StoredArtifact("main@sha1:def", "sha256:" + "1".repeat(64), null, null, null, null, null);

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
      new SourceFetch(
          Clock.systemUTC(),
          PipelineObserver.NONE,
          new FetchSlots(4),
          noClaimYet,
          new FetchAttempts(Clock.systemUTC()));

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

  @Test
  void aReplicaThatDoesNotOwnTheSourceTellsWhatWaitsOnlyWhenItStoredSomething() {
    List<String> told = new ArrayList<>();
    noClaimYet.onStoredHere((kind, source) -> told.add(kind + " " + source));

    fetches.reconcile(
        kind(() -> new FetchResult.Unchanged(ARTIFACT), Optional.of(ARTIFACT)), source());
    assertEquals(List.of(), told, "an unchanged fetch stored nothing");

    fetches.reconcile(kind(() -> new FetchResult.Fetched(OTHER), Optional.of(OTHER)), source());
    assertEquals(List.of("GitRepository team/repo"), told);
    assertEquals(0, written.get(), "not the owner: no status written");
  }

  @Test
  void anOwnerThatStoresAgainTheArtifactItsStatusNamesSaysSoToWhatWaitsForIt() {
    ShardGate alone = ShardGate.everything();
    List<String> told = new ArrayList<>();
    alone.onStoredHere((kind, source) -> told.add(kind + " " + source));
    SourceFetch owner =
        new SourceFetch(
            Clock.systemUTC(),
            PipelineObserver.NONE,
            new FetchSlots(4),
            alone,
            new FetchAttempts(Clock.systemUTC()));
    GitRepository naming = FakeGitSources.sourceWith("team", ARTIFACT);

    // the store was empty (a restart): the artifact the status names is published again; the
    // kind's own last artifact is the store's, which the fetch has just written
    owner.reconcile(kind(() -> new FetchResult.Fetched(ARTIFACT), Optional.of(ARTIFACT)), naming);
    assertEquals(1, written.get(), "the owner writes the status");
    assertEquals(List.of("GitRepository team/repo"), told);

    // a new revision wakes them by the status; an unchanged one stored nothing; a status that
    // names no artifact yet is written, which wakes them
    told.clear();
    owner.reconcile(kind(() -> new FetchResult.Fetched(OTHER), Optional.of(OTHER)), naming);
    owner.reconcile(kind(() -> new FetchResult.Unchanged(ARTIFACT), Optional.of(ARTIFACT)), naming);
    owner.reconcile(kind(() -> new FetchResult.Fetched(ARTIFACT), Optional.of(ARTIFACT)), source());
    assertEquals(List.of(), told);
  }

  private SourceKind<GitRepository> kind(
      Supplier<FetchResult> fetch, Optional<StoredArtifact> inStatus) {
    return FakeGitSources.kind(fetch, inStatus, written::incrementAndGet);
  }

  private SourceKind<GitRepository> kind(Optional<StoredArtifact> inStatus) {
    return FakeGitSources.kind(
        () -> new FetchResult.Unchanged(ARTIFACT), inStatus, written::incrementAndGet);
  }

  private static GitRepository source() {
    return FakeGitSources.source("team", false);
  }
}
