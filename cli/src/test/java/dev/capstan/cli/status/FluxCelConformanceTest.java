package dev.capstan.cli.status;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capstan.health.HealthFixtures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs every case of {@code conformance/flux-cel-cases.jsonl} (test resources; Flux's own test
 * vectors, see the README there) through {@code capstan status --exprs}. Cases at the {@code
 * lookup} stage describe another tool's reader internals (which GroupKinds a reader claims) and
 * have no equivalent here.
 */
class FluxCelConformanceTest {
  private static final String FIXTURE = "flux-cel-cases.jsonl";
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Probe identity for evaluator-level cases whose object has no apiVersion/kind. */
  private static final String PROBE_API_VERSION = "probe.capstan.dev/v1";

  private static final String PROBE_KIND = "Probe";

  @TempDir Path temp;

  @TestFactory
  Stream<DynamicTest> everyCase() throws IOException {
    List<DynamicTest> tests = new ArrayList<>();
    for (String line : HealthFixtures.lines(FIXTURE)) {
      @SuppressWarnings("unchecked")
      Map<String, Object> c = JSON.readValue(line, Map.class);
      if ("lookup".equals(c.get("stage"))) {
        continue;
      }
      tests.add(DynamicTest.dynamicTest((String) c.get("id"), () -> check(c)));
    }
    assertTrue(tests.size() >= 50, "expected the full case file, got " + tests.size() + " cases");
    return tests.stream();
  }

  @SuppressWarnings("unchecked")
  private void check(Map<String, Object> c) throws IOException {
    Map<String, Object> object = new LinkedHashMap<>((Map<String, Object>) c.get("object"));
    object.putIfAbsent("apiVersion", PROBE_API_VERSION);
    object.putIfAbsent("kind", PROBE_KIND);
    Path objects = temp.resolve("objects.json");
    Files.writeString(objects, JSON.writeValueAsString(object));
    Path exprs = temp.resolve("exprs.json");
    Files.writeString(exprs, JSON.writeValueAsString(healthChecks(c, object)));

    StatusCli.Result result =
        StatusCli.run(
            "",
            "-f",
            objects.toString(),
            "--exprs",
            exprs.toString(),
            "--no-builtin",
            "-o",
            "json");
    String expected = (String) c.get("expected");
    String expectedError = (String) c.get("expectedError");
    if ("construct".equals(c.get("stage"))) {
      assertEquals(StatusCommand.BAD_INPUT, result.exitCode(), () -> "exit code; " + result);
      assertContainsFragments(result.err(), expectedError);
      return;
    }
    assertEquals(0, result.exitCode(), () -> "exit code; " + result);
    Map<String, Object> row = JSON.readValue(result.out().strip(), Map.class);
    if (expected.equals("error")) {
      assertEquals("Unknown", row.get("status"), () -> "status; " + row);
      assertContainsFragments((String) row.get("message"), expectedError);
    } else {
      assertEquals(expected, row.get("status"), () -> "status; " + row);
    }
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> healthChecks(
      Map<String, Object> c, Map<String, Object> object) {
    if (c.get("healthChecks") != null) {
      return (List<Map<String, Object>>) c.get("healthChecks");
    }
    Map<String, Object> entry = new LinkedHashMap<>();
    entry.put("apiVersion", object.get("apiVersion"));
    entry.put("kind", object.get("kind"));
    if (c.get("exprs") != null) {
      entry.putAll((Map<String, Object>) c.get("exprs"));
    }
    return List.of(entry);
  }

  /**
   * The asserted substrings ("..." separates two of them). cel-go prefixes parser messages with
   * "Syntax error: "; the position and the parser's own text are what must agree.
   */
  private static void assertContainsFragments(String actual, String expectedError) {
    if (expectedError == null) {
      return;
    }
    for (String fragment : expectedError.replace("Syntax error: ", "").split("\\.\\.\\.")) {
      assertTrue(
          actual.contains(fragment.strip()),
          () -> "expected \"" + fragment.strip() + "\" in: " + actual);
    }
  }
}
