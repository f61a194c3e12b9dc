package dev.capstan.health.cel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.health.Fixtures;
import dev.capstan.health.HealthEvaluator;
import dev.capstan.health.status.ResourceStatus;
import dev.capstan.health.status.Status;
import java.util.List;
import org.junit.jupiter.api.Test;

class CelHealthCheckTest {
  private static final String CERT_FAILED =
      "status.conditions.filter(e, e.type == 'Ready').all(e, e.status == 'False')";
  private static final String CERT_CURRENT =
      "status.conditions.filter(e, e.type == 'Ready').all(e, e.status == 'True')";

  private static HealthEvaluator evaluator(HealthCheckExpr... exprs) {
    return HealthEvaluator.create(List.of(exprs), BuiltinLibrary.none(), Fixtures.CLOCK);
  }

  private static HealthCheckExpr widget(String current, String inProgress, String failed) {
    return new HealthCheckExpr("example.com/v1", "Widget", current, inProgress, failed);
  }

  @Test
  void userExpressionDecidesAndOverridesKstatus() {
    HealthEvaluator e =
        evaluator(
            widget(CERT_CURRENT, null, CERT_FAILED),
            new HealthCheckExpr("apps/v1", "Deployment", "true", "", ""));
    var ready =
        Fixtures.yaml(
            "{apiVersion: example.com/v2, kind: Widget, status: {conditions: [{type: Ready, status:"
                + " 'True'}]}}");
    var notReady =
        Fixtures.yaml(
            "{apiVersion: example.com/v1, kind: Widget, status: {conditions: [{type: Ready, status:"
                + " 'False', message: disk full}]}}");
    var deployment = Fixtures.yaml("{apiVersion: apps/v1, kind: Deployment, spec: {replicas: 3}}");
    assertEquals(Status.Current, e.status(ready).status());
    ResourceStatus failed = e.status(notReady);
    assertEquals(Status.Failed, failed.status());
    assertTrue(failed.message().contains("disk full"), failed::message);
    assertEquals(
        Status.Current, e.status(deployment).status(), "user entry replaces the kstatus rule");
    assertTrue(e.coversKind("example.com/v9", "Widget"));
    assertFalse(e.coversKind("example.com/v1", "Gadget"));
  }

  @Test
  void emptyConditionsAreVacuouslyFailedBecauseFailedIsCheckedFirst() {
    HealthEvaluator e = evaluator(widget(CERT_CURRENT, null, CERT_FAILED));
    var object =
        Fixtures.yaml("{apiVersion: example.com/v1, kind: Widget, status: {conditions: []}}");
    assertEquals(Status.Failed, e.status(object).status());
  }

  @Test
  void missingTopLevelFieldIsUnknownNamingTheAttribute() {
    HealthEvaluator e = evaluator(widget(CERT_CURRENT, null, null));
    ResourceStatus status = e.status(Fixtures.yaml("{apiVersion: example.com/v1, kind: Widget}"));
    assertEquals(Status.Unknown, status.status());
    assertTrue(
        status.message().contains("no such attribute(s): status.conditions"), status::message);
  }

  @Test
  void missingKeyIsUnknownAndHasProtectsNestedKeys() {
    HealthEvaluator e =
        evaluator(widget("status.ready", "has(status.phase) && status.phase == 'Pending'", null));
    ResourceStatus status =
        e.status(Fixtures.yaml("{apiVersion: example.com/v1, kind: Widget, status: {}}"));
    assertEquals(Status.Unknown, status.status());
    assertTrue(status.message().contains("no such key: ready"), status::message);
  }

  @Test
  void generationGateComesFirstAndToleratesStrings() {
    HealthEvaluator e = evaluator(widget("true", null, null));
    var behind =
        Fixtures.yaml(
            "{apiVersion: example.com/v1, kind: Widget, metadata: {generation: 2}, status:"
                + " {observedGeneration: 1}}");
    var stringly =
        Fixtures.yaml(
            "{apiVersion: example.com/v1, kind: Widget, metadata: {generation: '2'}, status:"
                + " {observedGeneration: 1}}");
    assertEquals(Status.InProgress, e.status(behind).status());
    assertEquals(Status.Current, e.status(stringly).status());
  }

  @Test
  void nonBooleanResultIsAnError() {
    HealthEvaluator e = evaluator(widget("spec.size", null, null));
    ResourceStatus status =
        e.status(Fixtures.yaml("{apiVersion: example.com/v1, kind: Widget, spec: {size: 3}}"));
    assertEquals(Status.Unknown, status.status());
    assertTrue(status.message().contains("as boolean"), status::message);
  }

  @Test
  void extensionLibrariesAndOptionalsAreAvailable() {
    HealthEvaluator e =
        evaluator(
            widget(
                "status.phase.lowerAscii() == 'ready' && math.greatest(1, 2) == 2 && [3,"
                    + " 1].sort()[0] == 1 && status.?missing.orValue('x') == 'x'",
                null,
                null));
    var object =
        Fixtures.yaml("{apiVersion: example.com/v1, kind: Widget, status: {phase: READY}}");
    assertEquals(Status.Current, e.status(object).status());
  }

  @Test
  void nullFieldsCompareEqualToNull() {
    HealthEvaluator e = evaluator(widget("status.endpoint == null", null, null));
    var object =
        Fixtures.yaml("{apiVersion: example.com/v1, kind: Widget, status: {endpoint: null}}");
    assertEquals(Status.Current, e.status(object).status());
  }

  @Test
  void hostileExpressionHitsTheIterationBudget() {
    String nested =
        "[0,1,2,3,4,5,6,7,8,9].all(a, [0,1,2,3,4,5,6,7,8,9].all(b, [0,1,2,3,4,5,6,7,8,9].all(c,"
            + " [0,1,2,3,4,5,6,7,8,9].all(d, [0,1,2,3,4,5,6,7,8,9].all(f, true)))))";
    HealthEvaluator e = evaluator(widget(nested, null, null));
    ResourceStatus status = e.status(Fixtures.yaml("{apiVersion: example.com/v1, kind: Widget}"));
    assertEquals(Status.Unknown, status.status());
  }

  @Test
  void rangeIsNotAvailable() {
    assertThrows(
        InvalidHealthCheckException.class,
        () -> evaluator(widget("lists.range(1000000000).size() > 0", null, null)));
  }

  @Test
  void compileErrorNamesKindExpressionAndPosition() {
    InvalidHealthCheckException error =
        assertThrows(
            InvalidHealthCheckException.class, () -> evaluator(widget("true", "status.", null)));
    assertTrue(error.getMessage().contains("example.com/v1/Widget"), error::getMessage);
    assertTrue(
        error.getMessage().contains("failed to parse the expression InProgress"),
        error::getMessage);
    assertTrue(error.getMessage().contains("'status.'"), error::getMessage);
    assertTrue(error.getMessage().contains("<input>:1:8"), error::getMessage);
  }

  @Test
  void missingCurrentAndDuplicatesAreRejected() {
    assertThrows(InvalidHealthCheckException.class, () -> evaluator(widget("", "true", null)));
    InvalidHealthCheckException duplicate =
        assertThrows(
            InvalidHealthCheckException.class,
            () ->
                evaluator(
                    widget("true", null, null),
                    new HealthCheckExpr("example.com/v2", "Widget", "false", null, null)));
    assertTrue(
        duplicate
            .getMessage()
            .contains(
                "duplicate custom health check for GroupKind Widget.example.com at"
                    + " healthchecks[1]"),
        duplicate::getMessage);
  }

  @Test
  void groupWideEntryAppliesToEveryKindAndKindEntryWins() {
    HealthEvaluator e =
        evaluator(
            new HealthCheckExpr("example.com/v1", "", "false", null, "true"),
            new HealthCheckExpr("example.com/v1", "Widget", "true", null, null));
    assertEquals(
        Status.Current,
        e.status(Fixtures.yaml("{apiVersion: example.com/v1, kind: Widget}")).status());
    assertEquals(
        Status.Failed,
        e.status(Fixtures.yaml("{apiVersion: example.com/v1, kind: Gadget}")).status());
  }
}
