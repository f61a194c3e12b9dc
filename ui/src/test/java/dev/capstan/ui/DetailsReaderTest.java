package dev.capstan.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.capstan.api.common.Snapshot;
import dev.capstan.api.kustomize.KustomizationStatus;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The "Last reconciles" table of a Kustomization's page, read from status.history. */
class DetailsReaderTest {

  private static KustomizationStatus withHistory(List<Snapshot> history) {
    return new KustomizationStatus(1L, List.of(), null, null, null, null, null, history);
  }

  @Test
  void eachHistoryEntryIsALineInTheSameOrder() {
    Snapshot failed =
        new Snapshot(
            "sha256:bad",
            "2026-01-02T00:00:00Z",
            "2026-01-02T00:05:00Z",
            "1.5s",
            "ApplyFailed",
            3L,
            Map.of("revision", "main@sha1:2", "originRevision", "v2@sha1:feed"));
    Snapshot applied =
        new Snapshot(
            "sha256:good",
            "2026-01-01T00:00:00Z",
            "2026-01-01T00:00:00Z",
            "800ms",
            "ReconciliationSucceeded",
            1L,
            Map.of("revision", "main@sha1:1"));

    assertEquals(
        List.of(
            new Details.ReconcileLine(
                "ApplyFailed",
                3,
                "main@sha1:2",
                "v2@sha1:feed",
                "sha256:bad",
                "2026-01-02T00:00:00Z",
                "2026-01-02T00:05:00Z",
                "1.5s"),
            new Details.ReconcileLine(
                "ReconciliationSucceeded",
                1,
                "main@sha1:1",
                "",
                "sha256:good",
                "2026-01-01T00:00:00Z",
                "2026-01-01T00:00:00Z",
                "800ms")),
        DetailsReader.reconciles(withHistory(List.of(failed, applied))));
  }

  @Test
  void missingFieldsAreEmptyAndNoHistoryIsNoLine() {
    assertEquals(
        List.of(new Details.ReconcileLine("", 0, "", "", "", "", "", "")),
        DetailsReader.reconciles(
            withHistory(List.of(new Snapshot(null, null, null, null, null, null, null)))));
    assertEquals(List.of(), DetailsReader.reconciles(withHistory(null)));
    assertEquals(List.of(), DetailsReader.reconciles(null));
  }
}
