package dev.capstan.engine.conditions;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.capstan.api.helm.HelmReleaseStatus;
import dev.capstan.api.helm.HelmReleaseStatus.ReleaseAction;
import dev.capstan.api.helm.ReleaseSnapshot;
import dev.capstan.engine.conditions.ReleaseObservation.Attempted;
import dev.capstan.engine.conditions.ReleaseObservation.HealthState;
import dev.capstan.engine.conditions.ReleaseObservation.TestSeen;
import dev.capstan.health.AggregateHealth;
import dev.capstan.health.status.Status;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** TestSuccess, Ready and the failure counts, for each case of {@code release-tests.yaml}. */
class ReleaseTestConditionTest {
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  @JsonIgnoreProperties(ignoreUnknown = true)
  record Tests(String kind, boolean ignored) {
    /** Whether the tests finished, so that their run is kept in the history. */
    boolean ran() {
      return kind.equals("Passed") || kind.equals("Failed");
    }

    TestSeen seen() {
      return switch (kind) {
        case "Off" -> new ReleaseObservation.TestsOff();
        case "Pending" -> new ReleaseObservation.TestsPending("awaiting tests");
        case "Running" -> new ReleaseObservation.TestsRunning("test hook smoke is running");
        case "Passed" ->
            new ReleaseObservation.TestsPassed(
                "1 test hook completed",
                new ReleaseObservation.TestRun(2, Map.of("smoke", hook("Succeeded"))));
        case "Failed" ->
            new ReleaseObservation.TestsFailed(
                "test hook smoke failed",
                ignored,
                new ReleaseObservation.TestRun(2, Map.of("smoke", hook("Failed"))));
        default -> throw new IllegalArgumentException(kind);
      };
    }
  }

  private static ReleaseSnapshot.TestHookStatus hook(String phase) {
    return new ReleaseSnapshot.TestHookStatus(
        "2026-01-01T00:00:00Z", "2026-01-01T00:00:05Z", phase);
  }

  @JsonIgnoreProperties(ignoreUnknown = true)
  record Counts(long failures, long installFailures) {}

  @JsonIgnoreProperties(ignoreUnknown = true)
  record Case(
      String name,
      Map<String, String> before,
      String historyTests,
      Tests tests,
      boolean progressing,
      Map<String, String> expect,
      Counts failures) {}

  static Stream<Named<Case>> cases() throws IOException {
    try (InputStream in =
        ReleaseTestConditionTest.class.getResourceAsStream("/conditions/release-tests.yaml")) {
      List<Case> cases = YAML.readValue(in, new TypeReference<List<Case>>() {});
      return cases.stream().map(c -> Named.of(c.name(), c));
    }
  }

  @ParameterizedTest
  @MethodSource("cases")
  void setsTheConditions(Case c) {
    Status health = c.progressing() ? Status.InProgress : Status.Current;
    ReleaseObservation seen =
        ReleaseObservationBuilder.builder()
            .generation(1)
            .now(T0)
            .attempted(
                new Attempted("6.5.0", "sha256:a", "sha256:v", "c", ReleaseAction.install, null))
            .storageNamespace("apps")
            .maxHistory(5)
            .phase(new ReleaseObservation.Unchanged())
            .health(new AggregateHealth(health, "", List.of(), List.of(), 1))
            .healthState(c.progressing() ? HealthState.IN_PROGRESS : HealthState.CURRENT)
            .tests(c.tests() == null ? null : c.tests().seen())
            .build();

    HelmReleaseStatus status = HelmReleaseStatuses.next(before(c.before(), c.historyTests()), seen);

    c.expect().forEach((type, expected) -> assertEquals(expected, describe(status, type), type));
    if (c.failures() != null) {
      assertEquals(c.failures().failures(), orZero(status.failures()), "failures");
      assertEquals(c.failures().installFailures(), orZero(status.installFailures()), "installs");
    }
    if (c.historyTests() != null && c.tests() != null && c.tests().ran()) {
      assertEquals(
          Map.of("smoke", hook(c.tests().kind().equals("Passed") ? "Succeeded" : "Failed")),
          status.history().get(0).testHooks());
    }
  }

  private static HelmReleaseStatus before(Map<String, String> conditions, String historyTests) {
    Map<String, String> all = new TreeMap<>(Map.of("Released", "True InstallSucceeded"));
    if (conditions != null) {
      all.putAll(conditions);
    }
    List<Condition> list =
        all.entrySet().stream()
            .map(
                e ->
                    new ConditionBuilder()
                        .withType(e.getKey())
                        .withStatus(e.getValue().split(" ")[0])
                        .withReason(e.getValue().split(" ")[1])
                        .withMessage("before")
                        .build())
            .toList();
    Map<String, Object> status = new TreeMap<>(Map.of("observedGeneration", 1, "conditions", list));
    if (historyTests != null) {
      status.put("history", List.of(snapshot(historyTests)));
    }
    return YAML.convertValue(status, HelmReleaseStatus.class);
  }

  /** Version 2 deployed, its test hooks kept as {@code tests} says: none, or smoke's phase. */
  private static Map<String, Object> snapshot(String tests) {
    Map<String, Object> snapshot =
        new TreeMap<>(
            Map.of(
                "digest", "sha256:r",
                "name", "podinfo",
                "namespace", "apps",
                "version", 2,
                "status", "deployed",
                "chartName", "podinfo",
                "chartVersion", "6.5.0",
                "configDigest", "sha256:v",
                "firstDeployed", "2026-01-01T00:00:00Z",
                "lastDeployed", "2026-01-01T00:00:00Z"));
    if (!"none".equals(tests)) {
      snapshot.put("testHooks", Map.of("smoke", hook(tests)));
    }
    return snapshot;
  }

  private static String describe(HelmReleaseStatus status, String type) {
    return HelmReleaseStatuses.condition(status, type)
        .map(c -> c.getStatus() + " " + c.getReason())
        .orElse("absent");
  }

  private static long orZero(Long value) {
    return value == null ? 0 : value;
  }
}
