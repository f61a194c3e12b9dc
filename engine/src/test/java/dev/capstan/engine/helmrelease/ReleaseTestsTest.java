package dev.capstan.engine.helmrelease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.capstan.api.helm.HelmReleaseSpec;
import dev.capstan.api.helm.HelmReleaseStatus.ReleaseAction;
import dev.capstan.engine.conditions.ReleaseObservation.TestSeen;
import dev.capstan.engine.conditions.ReleaseObservation.TestsFailed;
import dev.capstan.engine.conditions.ReleaseObservation.TestsPassed;
import dev.capstan.engine.conditions.ReleaseObservation.TestsPending;
import dev.capstan.engine.conditions.ReleaseObservation.TestsRunning;
import dev.capstan.helm.release.Release;
import dev.capstan.helm.release.ReleaseChart;
import dev.capstan.helm.release.ReleaseHook;
import dev.capstan.helm.release.ReleaseInfo;
import dev.capstan.helm.release.ReleaseRecord;
import dev.capstan.helm.release.ReleaseStatus;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Where a record's Helm tests stand, for each case of {@code helmrelease/tests/cases.yaml}. */
class ReleaseTestsTest {
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  /** One test hook of the record. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  record Hook(String name, List<String> events, int weight, String phase) {}

  /** One case of the fixture. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  record Case(
      String name,
      Map<String, Object> spec,
      ReleaseAction action,
      List<Hook> hooks,
      String expect,
      String message,
      boolean ignored,
      boolean failsRelease) {}

  static Stream<Named<Case>> cases() throws IOException {
    try (InputStream in =
        ReleaseTestsTest.class.getResourceAsStream("/helmrelease/tests/cases.yaml")) {
      List<Case> cases = YAML.readValue(in, new TypeReference<List<Case>>() {});
      return cases.stream().map(c -> Named.of(c.name(), c));
    }
  }

  @ParameterizedTest
  @MethodSource("cases")
  void readsTheRecord(Case c) {
    HelmReleaseSpec spec = YAML.convertValue(c.spec(), HelmReleaseSpec.class);
    ReleaseAction action = c.action(); // none attempted: the install's remediation judges
    ReleaseRecord record = record(c.hooks());

    TestSeen seen = ReleaseTests.seen(spec, action, record);

    assertEquals(c.expect(), seen.getClass().getSimpleName());
    if (c.message() != null) {
      assertTrue(message(seen).contains(c.message()), message(seen));
    }
    if (seen instanceof TestsFailed f) {
      assertEquals(c.ignored(), f.ignored());
    }
    assertEquals(c.failsRelease(), ReleaseTests.failsRelease(spec, action, record));
  }

  private static String message(TestSeen seen) {
    if (seen instanceof TestsFailed f) {
      return f.message();
    } else if (seen instanceof TestsPassed p) {
      return p.message();
    } else if (seen instanceof TestsPending p) {
      return p.message();
    } else if (seen instanceof TestsRunning r) {
      return r.message();
    }
    return "";
  }

  private static ReleaseRecord record(List<Hook> hooks) {
    ObjectNode metadata = JsonNodeFactory.instance.objectNode();
    metadata.put("name", "podinfo").put("version", "6.1.0");
    Release release =
        new Release(
            "podinfo",
            new ReleaseInfo(null, null, null, null, ReleaseStatus.DEPLOYED, null),
            ReleaseChart.of(metadata, List.of(), null),
            null,
            "",
            hooks.stream().map(ReleaseTestsTest::hook).toList(),
            2,
            "apps",
            null);
    return new ReleaseRecord("apps", "sh.helm.release.v1.podinfo.v2", "1", Map.of(), release);
  }

  private static ReleaseHook hook(Hook h) {
    return new ReleaseHook(
        h.name(),
        "Job",
        "podinfo/templates/" + h.name() + ".yaml",
        "",
        h.events(),
        h.phase() == null
            ? ReleaseHook.Execution.NEVER
            : new ReleaseHook.Execution(null, null, h.phase()),
        h.weight(),
        List.of(),
        List.of());
  }
}
