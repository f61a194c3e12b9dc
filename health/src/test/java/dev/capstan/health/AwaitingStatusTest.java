package dev.capstan.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.health.cel.BuiltinLibrary;
import dev.capstan.health.cel.CelHealthCheck;
import dev.capstan.health.cel.HealthCheckExpr;
import dev.capstan.health.status.ResourceStatus;
import dev.capstan.health.status.Status;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A built-in check calls an object whose controller has not reported what the check reads
 * InProgress; a user's check keeps the RFC's rule that a missing field is an evaluation error.
 */
class AwaitingStatusTest {
  private static final String WIDGET_FAILED =
      "has(status.conditions) && status.conditions.exists(c, c.type == 'Ready' && c.status =="
          + " 'False')";
  private static final String WIDGET_CURRENT =
      "status.conditions.exists(c, c.type == 'Ready' && c.status == 'True')";

  private static final BuiltinLibrary LIBRARY =
      BuiltinLibrary.fromYaml(
          """
          - {apiVersion: example.com/*, kind: Widget, failed: "%s", current: "%s"}
          - {apiVersion: example.com/*, kind: Repo, current: "has(status.conditions) || spec.type == 'oci'"}
          - {apiVersion: example.com/*, kind: Job, failed: "!has(status.lastRun) || status.lastRun == null", current: "has(status.lastRun)"}
          - {apiVersion: example.com/*, kind: Static, current: "true"}
          - {apiVersion: example.com/*, kind: Phased, current: "status.?phase.orValue('') == 'Ready'"}
          """
              .formatted(WIDGET_FAILED, WIDGET_CURRENT));

  private static final HealthEvaluator BUILTIN =
      HealthEvaluator.create(List.of(), LIBRARY, Fixtures.CLOCK);

  private static ResourceStatus builtin(String yaml) {
    return BUILTIN.status(Fixtures.yaml(yaml));
  }

  private static void assertAwaiting(ResourceStatus status) {
    assertEquals(Status.InProgress, status.status(), status::message);
    assertEquals(CelHealthCheck.AWAITING_STATUS, status.reason());
    assertEquals("waiting for the controller to report status", status.message());
  }

  @Test
  void noStatusAtAllIsWaitingForTheController() {
    assertAwaiting(
        builtin("{apiVersion: example.com/v1, kind: Widget, metadata: {name: w, generation: 1}}"));
    assertAwaiting(builtin("{apiVersion: example.com/v1, kind: Widget, status: null}"));
  }

  @Test
  void statusWithoutAnythingTheEntryReadsIsWaitingForTheController() {
    assertAwaiting(builtin("{apiVersion: example.com/v1, kind: Widget, status: {}}"));
    assertAwaiting(
        builtin("{apiVersion: example.com/v1, kind: Widget, status: {observedGeneration: 1}}"));
    assertAwaiting(builtin("{apiVersion: example.com/v1, kind: Phased, status: {}}"));
  }

  @Test
  void absenceOfAReportIsNeverFailed() {
    assertAwaiting(builtin("{apiVersion: example.com/v1, kind: Job, status: {}}"));
    assertEquals(
        Status.Failed,
        builtin("{apiVersion: example.com/v1, kind: Job, status: {lastRun: null}}").status(),
        "a field reported as null is a report");
  }

  @Test
  void reportedFieldsAreEvaluatedAsUsual() {
    assertEquals(
        Status.Current,
        builtin(
                "{apiVersion: example.com/v1, kind: Widget, status: {conditions: [{type: Ready,"
                    + " status: 'True'}]}}")
            .status());
    assertEquals(
        Status.Failed,
        builtin(
                "{apiVersion: example.com/v1, kind: Widget, status: {conditions: [{type: Ready,"
                    + " status: 'False'}]}}")
            .status());
    assertEquals(
        Status.Current,
        builtin("{apiVersion: example.com/v1, kind: Phased, status: {phase: Ready}}").status());
  }

  @Test
  void currentExpressionThatHoldsWithoutStatusStillDecides() {
    assertEquals(
        Status.Current,
        builtin("{apiVersion: example.com/v1, kind: Repo, spec: {type: oci}}").status());
    assertEquals(
        Status.Current,
        builtin("{apiVersion: example.com/v1, kind: Repo, spec: {type: oci}, status: {}}")
            .status());
    assertAwaiting(builtin("{apiVersion: example.com/v1, kind: Repo, spec: {type: default}}"));
    assertEquals(
        Status.Current,
        builtin("{apiVersion: example.com/v1, kind: Static}").status(),
        "an entry that reads no status does not wait for one");
  }

  @Test
  void userEntryKeepsTheMissingFieldError() {
    HealthEvaluator user =
        HealthEvaluator.create(
            List.of(
                new HealthCheckExpr("example.com/v1", "Widget", WIDGET_CURRENT, "", WIDGET_FAILED)),
            LIBRARY,
            Fixtures.CLOCK);
    ResourceStatus status =
        user.status(Fixtures.yaml("{apiVersion: example.com/v1, kind: Widget}"));
    assertEquals(Status.Unknown, status.status());
    assertTrue(status.message().contains("no such attribute(s): status"), status::message);
  }

  @Test
  void statusOfTheWrongTypeIsStillReported() {
    ResourceStatus status = builtin("{apiVersion: example.com/v1, kind: Widget, status: ready}");
    assertEquals(Status.Unknown, status.status(), status::message);
  }
}
