package dev.capstan.engine.helmrelease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.capstan.engine.conditions.ReleaseReason;
import dev.capstan.health.cel.BuiltinLibrary;
import dev.capstan.health.cel.HealthCheckExpr;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The release pipeline's evaluators: an invalid check fails the release (the cache is {@code
 * CompiledEvaluatorsTest}'s).
 */
class ReleaseEvaluatorsTest {
  private final ReleaseEvaluators evaluators =
      new ReleaseEvaluators(BuiltinLibrary.none(), Clock.systemUTC());

  @Test
  void anInvalidExpressionFailsTheReleaseNamingTheField() {
    HealthCheckExpr broken = new HealthCheckExpr("v1", "ConfigMap", "status.(", null, null);
    ReleaseFailure failure =
        assertThrows(ReleaseFailure.class, () -> evaluators.of(List.of(broken)));
    assertEquals(ReleaseReason.INIT_FAILED, failure.reason());
    assertEquals(0, evaluators.created());
  }
}
