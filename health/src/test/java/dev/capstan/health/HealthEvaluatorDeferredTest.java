package dev.capstan.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.health.cel.BuiltinLibrary;
import dev.capstan.health.cel.HealthCheckExpr;
import dev.capstan.health.cel.InvalidHealthCheckException;
import dev.capstan.health.status.ResourceStatus;
import dev.capstan.health.status.Status;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link HealthEvaluator#deferred}: the engine's own checks, compiled when first needed. */
class HealthEvaluatorDeferredTest {
  private static final List<Map<String, Object>> OBJECTS =
      Fixtures.documents("deferred/objects.yaml");
  private static final Map<String, Object> COMPLETE_JOB = OBJECTS.get(0);
  private static final Map<String, Object> FAILED_JOB = OBJECTS.get(1);
  private static final Map<String, Object> CONFIG_MAP = OBJECTS.get(2);

  private static final HealthCheckExpr JOB_ENDED =
      new HealthCheckExpr(
          "batch/v1",
          "Job",
          "status.conditions.exists(c, c.type == 'Complete' && c.status == 'True')",
          null,
          "status.conditions.exists(c, c.type == 'Failed' && c.status == 'True')");
  private static final HealthCheckExpr BROKEN_CONFIG_MAP =
      new HealthCheckExpr("v1", "ConfigMap", "data.(", null, null);

  private static HealthEvaluator deferred(HealthCheckExpr... checks) {
    return HealthEvaluator.deferred(List.of(checks), BuiltinLibrary.none(), Fixtures.CLOCK);
  }

  @Test
  void theChecksJudgeObjectsOfTheirKind() {
    HealthEvaluator evaluator = deferred(JOB_ENDED);

    ResourceStatus failed = evaluator.status(FAILED_JOB);
    assertEquals(Status.Current, evaluator.status(COMPLETE_JOB).status());
    assertEquals(Status.Failed, failed.status());
  }

  @Test
  void anExpressionIsCompiledOnlyWhenAnObjectOfItsKindIsFirstJudged() {
    // create compiles at once and refuses the broken expression; deferred does not look at it yet
    assertThrows(
        InvalidHealthCheckException.class,
        () ->
            HealthEvaluator.create(
                List.of(BROKEN_CONFIG_MAP), BuiltinLibrary.none(), Fixtures.CLOCK));
    HealthEvaluator evaluator = deferred(BROKEN_CONFIG_MAP, JOB_ENDED);

    assertEquals(Status.Current, evaluator.status(COMPLETE_JOB).status());
    ResourceStatus configMap = evaluator.status(CONFIG_MAP);
    assertEquals(Status.Unknown, configMap.status());
    assertTrue(configMap.message().contains("Current"), configMap.message());
  }

  @Test
  void anEntryWithoutItsCurrentExpressionIsRefusedAtOnce() {
    HealthCheckExpr noCurrent = new HealthCheckExpr("batch/v1", "Job", "", null, null);

    InvalidHealthCheckException refused =
        assertThrows(InvalidHealthCheckException.class, () -> deferred(noCurrent));
    assertTrue(refused.getMessage().contains("expression Current not specified"));
  }
}
