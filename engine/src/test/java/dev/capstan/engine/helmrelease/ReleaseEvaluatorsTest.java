package dev.capstan.engine.helmrelease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.capstan.engine.conditions.ReleaseReason;
import dev.capstan.health.HealthEvaluator;
import dev.capstan.health.cel.BuiltinLibrary;
import dev.capstan.health.cel.HealthCheckExpr;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReleaseEvaluatorsTest {
  private final ReleaseEvaluators evaluators =
      new ReleaseEvaluators(BuiltinLibrary.none(), Clock.systemUTC());

  @Test
  void theSameChecksAreCompiledOnceAndOtherChecksApart() {
    HealthCheckExpr job =
        new HealthCheckExpr("batch/v1", "Job", "status.succeeded > 0", null, null);
    HealthEvaluator first = evaluators.of(List.of(job));
    // an equal list built anew, as each reconcile builds it from the spec
    HealthEvaluator again = evaluators.of(new ArrayList<>(List.of(job)));
    HealthEvaluator none = evaluators.of(List.of());

    assertSame(first, again);
    assertNotSame(first, none);
    assertEquals(2, evaluators.created());
  }

  @Test
  void anInvalidExpressionFailsTheReleaseNamingTheField() {
    HealthCheckExpr broken = new HealthCheckExpr("v1", "ConfigMap", "status.(", null, null);
    ReleaseFailure failure =
        assertThrows(ReleaseFailure.class, () -> evaluators.of(List.of(broken)));
    assertEquals(ReleaseReason.INIT_FAILED, failure.reason());
    assertEquals(0, evaluators.created());
  }
}
