package dev.capstan.health.cel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.capstan.health.Fixtures;
import dev.capstan.health.HealthEvaluator;
import dev.capstan.health.status.DecidedBy;
import dev.capstan.health.status.GenericRules;
import dev.capstan.health.status.ResourceStatus;
import dev.capstan.health.status.Status;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** A built-in entry's Current is held back by the signs {@link GenericRules#objection} reads. */
class BuiltinGuardTest {
  private static final HealthEvaluator EVALUATOR =
      HealthEvaluator.create(List.of(), BuiltinLibrary.load(), Fixtures.CLOCK);

  static Stream<Arguments> cases() {
    return Fixtures.documents("generic/builtin-held-back.yaml").stream()
        .map(
            doc ->
                Arguments.of(
                    Named.of(String.valueOf(((Map<?, ?>) doc.get("metadata")).get("name")), doc)));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void statusAndRuleMatchTheFixture(Map<String, Object> object) {
    Map<?, ?> expect = (Map<?, ?>) ((Map<?, ?>) object.get("metadata")).get("annotations");
    ResourceStatus status = EVALUATOR.status(object);
    assertEquals(expect.get("expect-status"), status.status().name(), () -> "status of " + status);
    if (expect.containsKey("expect-reason")) {
      assertEquals(expect.get("expect-reason"), status.reason(), () -> "reason of " + status);
    }
    assertEquals(
        expect.get("expect-rule"), status.decidedBy().describe(), () -> "rule of " + status);
  }

  @Test
  void aUsersEntryIsNeverHeldBack() {
    HealthEvaluator user =
        HealthEvaluator.create(
            List.of(new HealthCheckExpr("cert-manager.io/v1", "Certificate", "true", null, null)),
            BuiltinLibrary.load(),
            Fixtures.CLOCK);
    Map<String, Object> certificate =
        Fixtures.yaml(
            "{apiVersion: cert-manager.io/v1, kind: Certificate, metadata: {name: c, generation:"
                + " 4}, status: {conditions: [{type: Ready, status: 'False', observedGeneration:"
                + " 3}, {type: Reconciling, status: 'True'}]}}");
    ResourceStatus status = user.status(certificate);
    assertEquals(Status.Current, status.status());
    assertEquals(new DecidedBy.UserCel("cert-manager.io/v1/Certificate"), status.decidedBy());
  }
}
