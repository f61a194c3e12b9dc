package dev.capstan.engine.pipeline;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.api.source.GitRepository;
import dev.capstan.engine.core.NamespacedName;
import dev.capstan.engine.shard.ShardGate;
import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.store.FetchResult;
import dev.capstan.source.core.store.StoredArtifact;
import dev.capstan.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * An engine started on an empty store: until a source's first look here has ended, its artifact is
 * on its way; a fetch that found no slot has not looked yet; after the grace nothing is.
 */
class FetchAttemptsTest {
  private static final NamespacedName REPO = new NamespacedName("team", "repo");
  private static final StoredArtifact ARTIFACT =
      new StoredArtifact("main@sha1:abc", "sha256:" + "0".repeat(64), null, null, null, null, null);

  private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
  private final FetchAttempts attempts = new FetchAttempts(clock);

  @Test
  void aSourceNotLookedAtYetIsOnItsWayOnlyForItsKind() {
    assertTrue(attempts.onItsWay("GitRepository", REPO));

    attempts.ended("OCIRepository", REPO);
    assertTrue(attempts.onItsWay("GitRepository", REPO), "another kind of the same name");

    attempts.ended("GitRepository", REPO);
    assertFalse(attempts.onItsWay("GitRepository", REPO));
  }

  @Test
  void afterTheGraceNothingIsOnItsWay() {
    clock.advance(FetchAttempts.GRACE.minusSeconds(1));
    assertTrue(attempts.onItsWay("GitRepository", REPO));

    clock.advance(Duration.ofSeconds(1));
    assertFalse(attempts.onItsWay("GitRepository", REPO), "a source this engine never fetches");
  }

  @Test
  void aFetchThatStoredAFetchThatFailedAndASuspendedSourceHaveEachBeenLookedAt() {
    assertEnds(() -> new FetchResult.Fetched(ARTIFACT), false);
    assertEnds(
        () -> new FetchResult.Failed(FailureReason.GIT_OPERATION_FAILED, "down", Optional.empty()),
        false);
    assertEnds(() -> new FetchResult.Fetched(ARTIFACT), true);
  }

  @Test
  void aFetchThatFoundNoSlotHasNotLookedYet() {
    FetchSlots slots = new FetchSlots(1);
    FetchSlots.Slot held = slots.tryTake("team").orElseThrow();
    SourceFetch fetches = fetches(slots);

    fetches.reconcile(kind(() -> new FetchResult.Fetched(ARTIFACT)), source(false));
    assertTrue(attempts.onItsWay("GitRepository", REPO));

    held.close();
    fetches.reconcile(kind(() -> new FetchResult.Fetched(ARTIFACT)), source(false));
    assertFalse(attempts.onItsWay("GitRepository", REPO));
  }

  private void assertEnds(Supplier<FetchResult> result, boolean suspended) {
    FetchAttempts fresh = new FetchAttempts(clock);
    SourceFetch fetches =
        new SourceFetch(
            clock, PipelineObserver.NONE, new FetchSlots(1), ShardGate.everything(), fresh);
    assertTrue(fresh.onItsWay("GitRepository", REPO));

    fetches.reconcile(kind(result), source(suspended));

    assertFalse(fresh.onItsWay("GitRepository", REPO), "suspended: " + suspended);
  }

  private SourceFetch fetches(FetchSlots slots) {
    return new SourceFetch(clock, PipelineObserver.NONE, slots, ShardGate.everything(), attempts);
  }

  private static SourceKind<GitRepository> kind(Supplier<FetchResult> result) {
    return FakeGitSources.kind(result, Optional.empty(), () -> {});
  }

  private static GitRepository source(boolean suspended) {
    return FakeGitSources.source("team", suspended);
  }
}
