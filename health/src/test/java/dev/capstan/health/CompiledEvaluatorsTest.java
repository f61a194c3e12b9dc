package dev.capstan.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.capstan.health.cel.BuiltinLibrary;
import dev.capstan.health.cel.HealthCheckExpr;
import dev.capstan.health.cel.InvalidHealthCheckException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CompiledEvaluatorsTest {
  private final CompiledEvaluators evaluators =
      new CompiledEvaluators(BuiltinLibrary.none(), Clock.systemUTC());

  private static HealthCheckExpr job(String current) {
    return new HealthCheckExpr("batch/v1", "Job", current, null, null);
  }

  @Test
  void theSameChecksAreCompiledOnceAndOtherChecksApart() throws Exception {
    HealthEvaluator first = evaluators.of(List.of(job("status.succeeded > 0")));
    // an equal list built anew, as each reconcile builds it from the spec
    HealthEvaluator again = evaluators.of(new ArrayList<>(List.of(job("status.succeeded > 0"))));
    HealthEvaluator none = evaluators.of(List.of());

    assertSame(first, again);
    assertNotSame(first, none);
    assertEquals(2, evaluators.created());
  }

  @Test
  void everChangingChecksEmptyTheCacheRatherThanGrowIt() throws Exception {
    HealthEvaluator first = evaluators.of(List.of(job("status.succeeded > 0")));
    for (int i = 1; i < 512; i++) {
      evaluators.of(List.of(job("status.succeeded > " + i)));
    }
    assertSame(first, evaluators.of(List.of(job("status.succeeded > 0"))), "512 are kept");

    evaluators.of(List.of(job("status.succeeded > 512"))); // the 513th empties the cache

    assertNotSame(first, evaluators.of(List.of(job("status.succeeded > 0"))));
    assertEquals(514, evaluators.created());
  }

  @Test
  void anInvalidExpressionIsRefusedAndNothingIsKept() {
    HealthCheckExpr broken = new HealthCheckExpr("v1", "ConfigMap", "status.(", null, null);

    assertThrows(InvalidHealthCheckException.class, () -> evaluators.of(List.of(broken)));
    assertEquals(0, evaluators.created());
  }
}
