package dev.capstan.cli.objects;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.capstan.api.common.Snapshot;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** status.history as `get -o wide` and `tree` print it. */
class HistoryTextTest {
  private static final Snapshot LATEST =
      new Snapshot(
          "sha256:43ad78c94b2655429d84f21488f29d7cca9cd45b7f54d2b27e16bbec8eff9228",
          "2026-03-01T10:11:00Z",
          "2026-03-01T11:12:00Z",
          "2.8s",
          "ReconciliationSucceeded",
          2L,
          Map.of("revision", "v1.0.1@sha1:450796dd", "originRevision", "v1.0.1@sha1:0a0b"));
  private static final Snapshot OLDER =
      new Snapshot(
          "sha256:ec8d",
          "2026-02-01T13:10:00Z",
          "2026-03-01T10:00:00Z",
          "49.8s",
          "HealthCheckFailed",
          120L,
          Map.of("revision", "v1.0.0@sha1:67e2c98a"));

  @Test
  void theSummaryGivesEachOutcomeWithItsCountMostRecentFirst() {
    assertEquals(
        "ReconciliationSucceeded×2,HealthCheckFailed×120",
        HistoryText.summary(List.of(LATEST, OLDER)));
    assertEquals("", HistoryText.summary(null));
  }

  @Test
  void aLineGivesRevisionOriginShortDigestTimesAndDuration() {
    assertEquals(
        "ReconciliationSucceeded ×2  v1.0.1@sha1:450796dd (origin v1.0.1@sha1:0a0b)"
            + "  sha256:43ad78c94b26…  first 2026-03-01T10:11:00Z  last 2026-03-01T11:12:00Z"
            + " (took 2.8s)",
        HistoryText.line(LATEST));
    assertEquals(
        "HealthCheckFailed ×120  v1.0.0@sha1:67e2c98a  sha256:ec8d  first 2026-02-01T13:10:00Z"
            + "  last 2026-03-01T10:00:00Z (took 49.8s)",
        HistoryText.line(OLDER));
  }
}
