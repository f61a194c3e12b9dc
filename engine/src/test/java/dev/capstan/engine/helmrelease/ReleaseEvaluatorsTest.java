package dev.capstan.engine.helmrelease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.capstan.engine.conditions.ReleaseReason;
import dev.capstan.health.cel.BuiltinLibrary;
import dev.capstan.health.cel.HealthCheckExpr;
import dev.capstan.health.status.Status;
import java.time.Clock;
import java.util.List;
import java.util.Map;
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

  @Test
  void theHooksAreJudgedAsHelmWaitsForThemWithoutACompiledEvaluatorOfTheirOwn() {
    Map<String, Object> runningJob =
        Map.of(
            "apiVersion",
            "batch/v1",
            "kind",
            "Job",
            "metadata",
            Map.of("name", "migrate", "namespace", "hooks"),
            "status",
            Map.of("active", 1, "conditions", List.of()));
    Map<String, Object> failedPod =
        Map.of(
            "apiVersion",
            "v1",
            "kind",
            "Pod",
            "metadata",
            Map.of("name", "test", "namespace", "hooks"),
            "status",
            Map.of("phase", "Failed"));

    assertEquals(Status.InProgress, evaluators.hooks().status(runningJob).status());
    assertEquals(Status.Failed, evaluators.hooks().status(failedPod).status());
    assertEquals(0, evaluators.created(), "the hooks' checks go through no cache of compiled ones");
  }
}
