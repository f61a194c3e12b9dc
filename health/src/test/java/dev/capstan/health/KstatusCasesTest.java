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
 * Every built-in kind, generic objects and bad input, from YAML fixtures whose annotations carry
 * the expected status, reason and message.
 */
class KstatusCasesTest {
  private static final HealthEvaluator EVALUATOR =
      HealthEvaluator.create(List.of(), BuiltinLibrary.none(), Fixtures.CLOCK);

  static Stream<Arguments> cases() {
    return Stream.of(
            "kstatus-workloads.yaml", "kstatus-other-kinds.yaml", "generic-and-bad-input.yaml")
        .flatMap(file -> Fixtures.documents(file).stream())
        .map(doc -> Arguments.of(Named.of(name(doc), doc)));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void statusMatchesTheFixture(Map<String, Object> object) {
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
  }

  private static Map<?, ?> annotations(Map<String, Object> object) {
    return (Map<?, ?>) ((Map<?, ?>) object.get("metadata")).get("annotations");
  }

  private static String name(Map<String, Object> object) {
    return String.valueOf(((Map<?, ?>) object.get("metadata")).get("name"));
  }
}
