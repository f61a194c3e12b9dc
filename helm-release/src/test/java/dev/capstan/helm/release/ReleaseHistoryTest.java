package dev.capstan.helm.release;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A release's records in version order, its latest and deployed ones, and what Helm prunes. */
class ReleaseHistoryTest {

  @Test
  void ordersByVersionAndFindsTheLatestAndTheLastDeployed() {
    ReleaseHistory history =
        history(
            record(3, ReleaseStatus.FAILED),
            record(1, ReleaseStatus.SUPERSEDED),
            record(2, ReleaseStatus.DEPLOYED));

    assertEquals(
        List.of(1, 2, 3), history.records().stream().map(r -> r.release().version()).toList());
    assertEquals(3, history.latest().orElseThrow().release().version());
    assertEquals(2, history.lastDeployed().orElseThrow().release().version());
    assertEquals(4, history.nextVersion());
  }

  @Test
  void aNewReleaseStartsAtVersionOne() {
    ReleaseHistory history = history();
    assertTrue(history.latest().isEmpty());
    assertTrue(history.lastDeployed().isEmpty());
    assertEquals(1, history.nextVersion());
  }

  @Test
  void prunesTheOldestButNeverTheLastDeployed() {
    ReleaseHistory history =
        history(
            record(1, ReleaseStatus.SUPERSEDED),
            record(2, ReleaseStatus.DEPLOYED),
            record(3, ReleaseStatus.FAILED),
            record(4, ReleaseStatus.FAILED),
            record(5, ReleaseStatus.FAILED));

    assertEquals(List.of(1, 3), versions(history.beyond(3)));
    assertEquals(List.of(1, 3, 4, 5), versions(history.beyond(0)));
    assertEquals(List.of(), versions(history.beyond(5)));
    assertEquals(List.of(), versions(history.beyond(-1)));
  }

  @Test
  void withoutADeployedRecordTheOldestGo() {
    ReleaseHistory history =
        history(record(1, ReleaseStatus.SUPERSEDED), record(2, ReleaseStatus.FAILED));
    assertEquals(List.of(1), versions(history.beyond(1)));
  }

  private static List<Integer> versions(List<ReleaseRecord> records) {
    return records.stream().map(r -> r.release().version()).toList();
  }

  private static ReleaseHistory history(ReleaseRecord... records) {
    return new ReleaseHistory("apps", "web", List.of(records));
  }

  private static ReleaseRecord record(int version, ReleaseStatus status) {
    Release release =
        ReleaseBuilder.builder()
            .name("web")
            .namespace("apps")
            .version(version)
            .info(ReleaseInfoBuilder.builder().status(status).build())
            .build();
    return new ReleaseRecord(
        "apps", ReleaseRecord.secretName("web", version), "1", Map.of(), release);
  }
}
