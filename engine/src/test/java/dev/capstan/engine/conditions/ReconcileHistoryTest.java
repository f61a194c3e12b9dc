package dev.capstan.engine.conditions;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.capstan.api.common.Snapshot;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** status.history as Flux keeps it: counted per digest and outcome, most recent first, five. */
class ReconcileHistoryTest {
  private static final Instant T0 = Instant.parse("2026-03-01T10:00:00.700Z");
  private static final Map<String, String> REV1 = Map.of("revision", "main@sha1:1");
  private static final String SUCCEEDED = "ReconciliationSucceeded";

  private static List<Snapshot> record(
      List<Snapshot> history, String digest, String outcome, Instant at) {
    return ReconcileHistory.record(history, digest, outcome, at, Duration.ofMillis(2500), REV1);
  }

  @Test
  void aFirstReconcileStartsTheHistory() {
    List<Snapshot> history = record(null, "sha256:a", SUCCEEDED, T0);

    assertEquals(
        List.of(
            new Snapshot(
                "sha256:a",
                "2026-03-01T10:00:00Z",
                "2026-03-01T10:00:00Z",
                "2.5s",
                SUCCEEDED,
                1L,
                REV1)),
        history);
  }

  @Test
  void theSameSetEndingTheSameWayIsCountedKeepingItsFirstTime() {
    List<Snapshot> history = record(null, "sha256:a", SUCCEEDED, T0);
    history = record(history, "sha256:a", SUCCEEDED, T0.plusSeconds(600));

    assertEquals(1, history.size());
    Snapshot only = history.get(0);
    assertEquals(2L, only.totalReconciliations());
    assertEquals("2026-03-01T10:00:00Z", only.firstReconciled());
    assertEquals("2026-03-01T10:10:00Z", only.lastReconciled());
  }

  @Test
  void anotherOutcomeOfTheSameSetIsAnEntryOfItsOwnAndAnOlderOneMovesToTheFront() {
    List<Snapshot> history = record(null, "sha256:a", SUCCEEDED, T0);
    history = record(history, "sha256:a", "HealthCheckFailed", T0.plusSeconds(60));
    history = record(history, "sha256:a", SUCCEEDED, T0.plusSeconds(120));

    assertEquals(List.of(SUCCEEDED, "HealthCheckFailed"), outcomes(history));
    assertEquals(List.of(2L, 1L), counts(history));
  }

  @Test
  void onlyTheFiveMostRecentEntriesAreKept() {
    List<Snapshot> history = null;
    for (int i = 0; i < 7; i++) {
      history = record(history, "sha256:" + i, SUCCEEDED, T0.plusSeconds(i));
    }

    assertEquals(ReconcileHistory.MAX_ENTRIES, history.size());
    assertEquals(
        List.of("sha256:6", "sha256:5", "sha256:4", "sha256:3", "sha256:2"),
        history.stream().map(Snapshot::digest).toList());
  }

  private static List<String> outcomes(List<Snapshot> history) {
    return new ArrayList<>(history.stream().map(Snapshot::lastReconciledStatus).toList());
  }

  private static List<Long> counts(List<Snapshot> history) {
    return history.stream().map(Snapshot::totalReconciliations).toList();
  }
}
