package dev.capstan.health;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.capstan.health.cel.BuiltinLibrary;
import dev.capstan.health.cel.HealthCheckExpr;
import dev.capstan.health.status.ResourceStatus;
import dev.capstan.health.status.Status;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A CronJob whose last Job failed is Current with a note (kstatus's answer, docs/health-rules.md
 * "CronJob"); the entry that page gives for users who want such a CronJob to fail does so.
 */
class CronJobOptInTest {
  /** The entry docs/health-rules.md gives, verbatim. */
  static final HealthCheckExpr FAIL_ON_LAST_RUN =
      new HealthCheckExpr(
          "batch/v1",
          "CronJob",
          "true",
          null,
          "has(status.lastScheduleTime) && (!has(status.lastSuccessfulTime) ||"
              + " timestamp(status.lastSuccessfulTime) < timestamp(status.lastScheduleTime)) &&"
              + " (!has(status.active) || size(status.active) == 0)");

  private static final Map<String, Object> LAST_RUN_FAILED =
      Fixtures.yaml(
          "{apiVersion: batch/v1, kind: CronJob, metadata: {namespace: ops, name: backup},"
              + " status: {lastScheduleTime: '2025-01-01T00:00:00Z', lastSuccessfulTime:"
              + " '2024-12-31T00:00:12Z'}}");

  private static final Map<String, Object> LAST_RUN_SUCCEEDED =
      Fixtures.yaml(
          "{apiVersion: batch/v1, kind: CronJob, metadata: {namespace: ops, name: backup},"
              + " status: {lastScheduleTime: '2025-01-01T00:00:00Z', lastSuccessfulTime:"
              + " '2025-01-01T00:00:31Z'}}");

  @Test
  void byDefaultTheCronJobIsCurrentWithANote() {
    ResourceStatus status =
        HealthEvaluator.create(List.of(), BuiltinLibrary.load(), Fixtures.CLOCK)
            .status(LAST_RUN_FAILED);
    assertEquals(Status.Current, status.status());
    assertEquals("LastJobFailed", status.reason());
  }

  @Test
  void theDocumentedEntryFailsItAndLeavesASuccessfulOneCurrent() {
    HealthEvaluator strict =
        HealthEvaluator.create(List.of(FAIL_ON_LAST_RUN), BuiltinLibrary.load(), Fixtures.CLOCK);
    assertEquals(Status.Failed, strict.status(LAST_RUN_FAILED).status());
    assertEquals(Status.Current, strict.status(LAST_RUN_SUCCEEDED).status());
  }
}
