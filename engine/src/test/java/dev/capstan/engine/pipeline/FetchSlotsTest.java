package dev.capstan.engine.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.api.source.GitRepository;
import dev.capstan.source.core.store.FetchResult;
import dev.capstan.source.core.store.StoredArtifact;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class FetchSlotsTest {

  @Test
  void aNamespaceRunsAtMostItsSlotsAndLeavesOthersTheirs() {
    FetchSlots slots = new FetchSlots(2);
    List<FetchSlots.Slot> taken = new ArrayList<>();
    taken.add(slots.tryTake("hostile").orElseThrow());
    taken.add(slots.tryTake("hostile").orElseThrow());
    assertTrue(slots.tryTake("hostile").isEmpty());
    assertTrue(slots.tryTake("benign").isPresent());
    taken.get(0).close();
    assertTrue(slots.tryTake("hostile").isPresent());
  }

  @Test
  void aSlotClosedTwiceIsGivenBackOnce() {
    FetchSlots slots = new FetchSlots(1);
    FetchSlots.Slot slot = slots.tryTake("a").orElseThrow();
    slot.close();
    slot.close();
    FetchSlots.Slot again = slots.tryTake("a").orElseThrow();
    assertTrue(slots.tryTake("a").isEmpty(), "a second close gave back a slot it no longer held");
    again.close();
  }

  @Test
  void halfTheReconcileThreadsGoToOneNamespace() {
    assertEquals(5, FetchSlots.forThreads(10).perNamespace());
    assertEquals(1, FetchSlots.forThreads(1).perNamespace());
  }

  @Test
  void aSourceWhoseNamespaceHasNoSlotFreeFetchesNothingWritesNothingAndComesBackSoon() {
    FetchSlots slots = new FetchSlots(1);
    FetchSlots.Slot held = slots.tryTake("team").orElseThrow();
    SourceFetch fetches = new SourceFetch(Clock.systemUTC(), PipelineObserver.NONE, slots);
    AtomicInteger fetched = new AtomicInteger();
    AtomicInteger written = new AtomicInteger();

    Outcome outcome = reconcile(fetches, source("team"), fetched, written);

    assertEquals(Outcome.Kind.WAITING, outcome.kind());
    assertEquals(Optional.of(SourceFetch.NO_SLOT_RETRY), outcome.requeueAfter());
    assertEquals(0, fetched.get());
    assertEquals(0, written.get());

    held.close();
    Outcome next = reconcile(fetches, source("team"), fetched, written);
    assertEquals(Outcome.Kind.SUCCEEDED, next.kind());
    assertEquals(1, fetched.get());
    assertEquals(1, written.get());
    assertTrue(slots.tryTake("team").isPresent(), "the fetch kept its slot after it ended");
  }

  @Test
  void aSuspendedSourceIsNeitherFetchedNorWrittenNorGivenASlot() {
    FetchSlots slots = new FetchSlots(1);
    SourceFetch fetches = new SourceFetch(Clock.systemUTC(), PipelineObserver.NONE, slots);
    AtomicInteger fetched = new AtomicInteger();
    AtomicInteger written = new AtomicInteger();
    Outcome outcome = reconcile(fetches, source("team", true), fetched, written);

    assertEquals(Outcome.suspended().kind(), outcome.kind());
    assertEquals(0, fetched.get());
    assertEquals(0, written.get());
    assertTrue(slots.tryTake("team").isPresent());
  }

  @Test
  void aFetchThatFailsGivesItsSlotBack() {
    FetchSlots slots = new FetchSlots(1);
    SourceFetch fetches = new SourceFetch(Clock.systemUTC(), PipelineObserver.NONE, slots);
    try {
      fetches.reconcile(
          kind(
              () -> {
                throw new IllegalStateException("the fetch broke");
              },
              () -> {}),
          source("team"));
    } catch (IllegalStateException expected) {
      // the slot must still come back
    }
    assertFalse(slots.tryTake("team").isEmpty(), "a fetch that threw kept its slot");
  }

  private static Outcome reconcile(
      SourceFetch fetches, GitRepository source, AtomicInteger fetched, AtomicInteger written) {
    return fetches.reconcile(
        kind(
            () -> {
              fetched.incrementAndGet();
              return new FetchResult.Unchanged(
                  new StoredArtifact(
                      "main@sha1:abc", "sha256:" + "0".repeat(64), null, null, null, null, null));
            },
            written::incrementAndGet),
        source);
  }

  private static SourceKind<GitRepository> kind(Supplier<FetchResult> fetch, Runnable written) {
    return FakeGitSources.kind(fetch, Optional.empty(), written);
  }

  private static GitRepository source(String namespace) {
    return FakeGitSources.source(namespace, false);
  }

  private static GitRepository source(String namespace, boolean suspend) {
    return FakeGitSources.source(namespace, suspend);
  }
}
