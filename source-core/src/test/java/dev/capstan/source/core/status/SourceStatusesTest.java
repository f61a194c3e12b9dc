package dev.capstan.source.core.status;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.store.FetchResult;
import dev.capstan.source.core.store.StoredArtifact;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SourceStatusesTest {

  static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");
  static final Instant T1 = T0.plusSeconds(60);
  static final Instant T2 = T0.plusSeconds(120);
  static final StoredArtifact A =
      new StoredArtifact(
          "main@sha1:" + "a".repeat(40), "sha256:" + "1".repeat(64), Path.of("/store/a"), T0);
  static final StoredArtifact B =
      new StoredArtifact(
          "main@sha1:" + "b".repeat(40), "sha256:" + "2".repeat(64), Path.of("/store/b"), T1);

  @Test
  void successIsReadyWithArtifact() {
    SourceStatus s = SourceStatuses.next(SourceStatus.empty(), 3, new FetchResult.Fetched(A), T0);
    assertTrue(s.isReady());
    assertEquals(3, s.observedGeneration());
    Condition ready = s.condition(Condition.READY).orElseThrow();
    assertEquals("Succeeded", ready.reason());
    assertEquals(
        "stored artifact for revision 'main@sha1:" + "a".repeat(40) + "'", ready.message());
    assertEquals(T0, ready.lastTransitionTime());
    assertEquals(Optional.of(A), s.artifact());
    assertTrue(s.condition(Condition.FETCH_FAILED).isEmpty());
  }

  @Test
  void failureKeepsArtifactAndTransitionTimesOnlyMoveOnChange() {
    SourceStatus ok = SourceStatuses.next(SourceStatus.empty(), 1, new FetchResult.Fetched(A), T0);
    SourceStatus failed =
        SourceStatuses.next(
            ok,
            2,
            new FetchResult.Failed(
                FailureReason.AUTHENTICATION_FAILED, "refused", Optional.empty()),
            T1);
    assertFalse(failed.isReady());
    Condition ready = failed.condition(Condition.READY).orElseThrow();
    assertEquals("AuthenticationFailed", ready.reason());
    assertEquals(T1, ready.lastTransitionTime());
    assertEquals(Optional.of(A), failed.artifact(), "the last good artifact stays");
    assertEquals(
        T0, failed.condition(Condition.ARTIFACT_IN_STORAGE).orElseThrow().lastTransitionTime());
    assertTrue(failed.condition(Condition.STALLED).isEmpty(), "credentials can be fixed");

    SourceStatus again =
        SourceStatuses.next(
            failed,
            2,
            new FetchResult.Failed(FailureReason.AUTHENTICATION_FAILED, "refused", Optional.of(A)),
            T2);
    assertEquals(T1, again.condition(Condition.READY).orElseThrow().lastTransitionTime());

    SourceStatus recovered = SourceStatuses.next(again, 2, new FetchResult.Fetched(B), T2);
    assertTrue(recovered.isReady());
    assertEquals(T2, recovered.condition(Condition.READY).orElseThrow().lastTransitionTime());
    assertEquals(Optional.of(B), recovered.artifact());
  }

  @Test
  void specErrorsStall() {
    SourceStatus s =
        SourceStatuses.next(
            SourceStatus.empty(),
            1,
            new FetchResult.Failed(
                FailureReason.INVALID_REF, "invalid semver range 'x'", Optional.empty()),
            T0);
    assertEquals("InvalidRef", s.condition(Condition.STALLED).orElseThrow().reason());
    assertTrue(s.artifact().isEmpty());
    assertTrue(s.condition(Condition.ARTIFACT_IN_STORAGE).isEmpty());
  }

  @Test
  void aSourceThatStoresNothingIsReadyWithItsMessageAndNoArtifact() {
    Instant first = Instant.parse("2026-01-01T00:00:00Z");
    SourceStatus recorded =
        SourceStatuses.recorded(SourceStatus.empty(), 3, "Helm repository is ready", first);
    SourceStatus again =
        SourceStatuses.recorded(recorded, 4, "Helm repository is ready", first.plusSeconds(60));

    assertTrue(again.isReady());
    assertEquals(1, again.conditions().size());
    assertEquals("Helm repository is ready", again.conditions().get(0).message());
    assertEquals(first, again.conditions().get(0).lastTransitionTime());
    assertEquals(4, again.observedGeneration());
    assertEquals(Optional.empty(), again.artifact());
  }
}
