package dev.capstan.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.health.cel.BuiltinLibrary;
import dev.capstan.health.status.ResourceStatus;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The generic layer for kinds without a rule, one fixture file per step: (a) conditions, (b)
 * observedGeneration, (c) status vocabularies, (d) kstatus's default. Each document's annotations
 * give the expected status, and optionally reason, message and the rule that must decide ({@code
 * expect-rule}, as {@link DecidedBy#describe()} prints it; by default the file's own step).
 */
class GenericLayerTest {
  private static final HealthEvaluator EVALUATOR =
      HealthEvaluator.create(List.of(), BuiltinLibrary.none(), Fixtures.CLOCK);

  private static final Map<String, String> STEP_OF_FILE =
      Map.of(
          "generic/a-conditions.yaml", "generic conditions",
          "generic/b-observed-generation.yaml", "generic observedGeneration",
          "generic/c-status-vocabulary.yaml", "generic status vocabulary",
          "generic/d-default.yaml", "generic kstatus default");

  static Stream<Arguments> cases() {
    return STEP_OF_FILE.keySet().stream()
        .sorted()
        .flatMap(
            file ->
                Fixtures.documents(file).stream()
                    .map(
                        doc ->
                            Arguments.of(
                                Named.of(file + ": " + name(doc), doc), STEP_OF_FILE.get(file))));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void statusAndDecidingStepMatchTheFixture(Map<String, Object> object, String fileStep) {
    Map<?, ?> expect = annotations(object);
    ResourceStatus status = EVALUATOR.status(object);
    assertEquals(expect.get("expect-status"), status.status().name(), () -> "status of " + status);
    if (expect.containsKey("expect-reason")) {
      assertEquals(expect.get("expect-reason"), status.reason(), () -> "reason of " + status);
    }
    if (expect.containsKey("expect-message")) {
      String message = (String) expect.get("expect-message");
      assertTrue(status.message().contains(message), () -> "message of " + status);
    }
    Object rule = expect.containsKey("expect-rule") ? expect.get("expect-rule") : fileStep;
    assertEquals(rule, status.decidedBy().describe(), () -> "rule of " + status);
  }

  private static Map<?, ?> annotations(Map<String, Object> object) {
    return (Map<?, ?>) ((Map<?, ?>) object.get("metadata")).get("annotations");
  }

  private static String name(Map<String, Object> object) {
    return String.valueOf(((Map<?, ?>) object.get("metadata")).get("name"));
  }
}
