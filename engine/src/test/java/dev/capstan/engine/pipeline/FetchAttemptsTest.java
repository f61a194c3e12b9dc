package dev.capstan.engine.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
 * An engine started on an empty store: until a source's first look here has ended, and while its
 * last look stored another artifact than the one wanted, that artifact is on its way; a look that
 * failed, or found the source suspended, stored nothing to wait for; a fetch that found no slot or
 * waits for a source it includes has not looked yet; after the grace nothing is on its way.
 */
class FetchAttemptsTest {
  private static final NamespacedName REPO = new NamespacedName("team", "repo");
  private static final StoredArtifact ARTIFACT =
      new StoredArtifact("main@sha1:abc", "sha256:" + "0".repeat(64), null, null, null, null, null);
  private static final String OTHER = "sha256:" + "1".repeat(64);

  private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
  private final FetchAttempts attempts = new FetchAttempts(clock);

  @Test
  void aSourceNotLookedAtYetIsOnItsWayOnlyForItsKind() {
    assertTrue(attempts.onItsWay("GitRepository", REPO, ARTIFACT.digest()));

    attempts.ended("OCIRepository", REPO, Optional.of(ARTIFACT.digest()));
    assertTrue(
        attempts.onItsWay("GitRepository", REPO, ARTIFACT.digest()), "another kind, same name");

    attempts.ended("GitRepository", REPO, Optional.of(ARTIFACT.digest()));
    assertFalse(attempts.onItsWay("GitRepository", REPO, ARTIFACT.digest()));
  }

  @Test
  void anotherArtifactStoredIsOneWhoseStatusIsOnItsWayNothingStoredIsNot() {
    attempts.ended("GitRepository", REPO, Optional.of(OTHER));
    assertTrue(attempts.onItsWay("GitRepository", REPO, ARTIFACT.digest()), "status to follow");

    attempts.ended("GitRepository", REPO, Optional.empty());
    assertFalse(attempts.onItsWay("GitRepository", REPO, ARTIFACT.digest()), "a failed look");
  }

  @Test
  void theGraceBeginsAtTheFirstQuestionAsAStandbysFirstReconcileIsWhenItTakesOver() {
    clock.advance(Duration.ofHours(1)); // a standby, built long before it leads
    assertTrue(attempts.onItsWay("GitRepository", REPO, ARTIFACT.digest()));

    clock.advance(FetchAttempts.GRACE.minusSeconds(1));
    assertTrue(attempts.onItsWay("GitRepository", REPO, ARTIFACT.digest()));
    clock.advance(Duration.ofSeconds(1));
    assertFalse(
        attempts.onItsWay("GitRepository", REPO, ARTIFACT.digest()),
        "a source this engine never fetches");
  }

  @Test
  void aLookRecordsWhatItStoredAndALookCutShortRecordsNothingStored() {
    assertLeaves(() -> new FetchResult.Fetched(ARTIFACT), false, false);
    assertLeaves(() -> new FetchResult.Unchanged(ARTIFACT), false, false);
    assertLeaves(
        () -> new FetchResult.Failed(FailureReason.GIT_OPERATION_FAILED, "down", Optional.empty()),
        false,
        false);
    assertLeaves(() -> new FetchResult.Fetched(ARTIFACT), true, false);
    assertLeaves(
        () -> {
          throw new IllegalStateException("the fetch broke");
        },
        false,
        false);
    assertLeaves(
        () ->
            new FetchResult.Failed(
                FailureReason.INCLUDE_UNAVAILABLE, "not in storage", Optional.empty()),
        false,
        true);
  }

  @Test
  void aFetchThatFoundNoSlotHasNotLookedYet() {
    FetchSlots slots = new FetchSlots(1);
    FetchSlots.Slot held = slots.tryTake("team").orElseThrow();
    SourceFetch fetches =
        new SourceFetch(clock, PipelineObserver.NONE, slots, ShardGate.everything(), attempts);

    fetches.reconcile(kind(() -> new FetchResult.Fetched(ARTIFACT)), source(false));
    assertTrue(attempts.onItsWay("GitRepository", REPO, ARTIFACT.digest()));

    held.close();
    fetches.reconcile(kind(() -> new FetchResult.Fetched(ARTIFACT)), source(false));
    assertFalse(attempts.onItsWay("GitRepository", REPO, ARTIFACT.digest()));
  }

  /**
   * After one reconcile of a source whose fetch answers {@code result}: whether the artifact the
   * status names is still on its way, as {@code onItsWay} expects.
   */
  private void assertLeaves(Supplier<FetchResult> result, boolean suspended, boolean onItsWay) {
    FetchAttempts fresh = new FetchAttempts(clock);
    SourceFetch fetches =
        new SourceFetch(
            clock, PipelineObserver.NONE, new FetchSlots(1), ShardGate.everything(), fresh);
    try {
      fetches.reconcile(kind(result), source(suspended));
    } catch (IllegalStateException expected) {
      // a fetch that throws has looked all the same
    }
    assertEquals(
        onItsWay,
        fresh.onItsWay("GitRepository", REPO, ARTIFACT.digest()),
        "suspended: " + suspended);
  }

  private static SourceKind<GitRepository> kind(Supplier<FetchResult> result) {
    return FakeGitSources.kind(result, Optional.empty(), () -> {});
  }

  private static GitRepository source(boolean suspended) {
    return FakeGitSources.source("team", suspended);
  }
}
