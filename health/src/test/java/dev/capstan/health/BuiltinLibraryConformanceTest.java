package dev.capstan.health;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capstan.health.cel.BuiltinLibrary;
import dev.capstan.health.cel.HealthCheckExpr;
import dev.capstan.health.cel.HealthCheckExprsYaml;
import dev.capstan.health.status.DecidedBy;
import dev.capstan.health.status.GenerationCheck;
import dev.capstan.health.status.ResourceStatus;
import dev.capstan.health.status.Status;
import dev.capstan.kube.GroupKind;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Evaluates every example of the public fixture file {@code conformance/crd-examples.jsonl} (test
 * resources) with the built-in library and compares the status with the expected one, per kind and
 * overall.
 *
 * <p>The raw agreement over all examples (kinds the library does not cover included) must reach
 * {@value #MIN_AGREEMENT}, and every example of a kind the library covers must agree, except the
 * few listed in {@link #KNOWN_DIFFERENCES}: examples that two rules of the evaluator decide before
 * any library expression runs, where the fixtures expect what the expressions alone would say. The
 * test checks that each listed example is still decided by the rule given as its reason, and that
 * none of them agrees (a stale entry must leave the list).
 */
class BuiltinLibraryConformanceTest {
  static final String FIXTURE = "crd-examples.jsonl";
  static final double MIN_AGREEMENT = 0.90;

  /** The design's first rule: an object with a deletionTimestamp is Terminating. */
  private static final String DELETING =
      "metadata.deletionTimestamp is set: Terminating before any expression (design, order of"
          + " evaluation)";

  /** RFC-0009's gate: a status.observedGeneration behind metadata.generation is InProgress. */
  private static final String GENERATION =
      "status.observedGeneration differs from metadata.generation: InProgress before any expression"
          + " (RFC-0009)";

  /** Examples where Capstan deliberately differs from the fixture, each with its reason. */
  static final Map<String, String> KNOWN_DIFFERENCES =
      Map.ofEntries(
          Map.entry("astra.netapp.io/ResticVolumeBackup/degraded.yaml", DELETING),
          Map.entry("kafka.strimzi.io/KafkaBridge/degraded.yaml", DELETING),
          Map.entry("kafka.strimzi.io/KafkaBridge/progressing_noStatus.yaml", DELETING),
          Map.entry("kafka.strimzi.io/KafkaConnect/degraded.yaml", DELETING),
          Map.entry("kafka.strimzi.io/KafkaConnect/progressing_noStatus.yaml", DELETING),
          Map.entry("kafka.strimzi.io/KafkaConnector/degraded.yaml", DELETING),
          Map.entry("kafka.strimzi.io/KafkaConnector/progressing_noStatus.yaml", DELETING),
          Map.entry("promoter.argoproj.io/ChangeTransferPolicy/deleting.yaml", DELETING),
          Map.entry("promoter.argoproj.io/ClusterScmProvider/deleting.yaml", DELETING),
          Map.entry("promoter.argoproj.io/CommitStatus/deleting.yaml", DELETING),
          Map.entry("promoter.argoproj.io/GitCommitStatus/deleting.yaml", DELETING),
          Map.entry("promoter.argoproj.io/GitRepository/deleting.yaml", DELETING),
          Map.entry("promoter.argoproj.io/PromotionStrategy/deleting.yaml", DELETING),
          Map.entry("promoter.argoproj.io/PullRequest/deleting.yaml", DELETING),
          Map.entry("promoter.argoproj.io/ScmProvider/deleting.yaml", DELETING),
          Map.entry("promoter.argoproj.io/WebRequestCommitStatus/deleting.yaml", DELETING),
          Map.entry("k8s.keycloak.org/Keycloak/degraded.yaml", GENERATION),
          Map.entry("rabbitmq.com/Exchange/degraded.yaml", GENERATION));

  private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {};
  // Plain Jackson: whole numbers arrive as Integer, as they do from the engine's client.
  private final ObjectMapper json = new ObjectMapper();

  @Test
  void builtinLibraryAgreesWithTheFixtureExamples() throws IOException {
    HealthEvaluator evaluator = HealthEvaluator.withBuiltinLibrary();
    ConformanceTally tally = new ConformanceTally();
    List<String> lines = HealthFixtures.lines(FIXTURE);
    for (int i = 0; i < lines.size(); i++) {
      tally.add(evaluate(evaluator, json.readValue(lines.get(i), MAP), i + 1));
    }

    System.out.println(tally.table());
    printDocumentedEntries(tally);
    System.out.printf(
        "raw agreement: %d/%d = %.1f%% over every example (library covers %d of the fixture kinds;"
            + " %d listed known differences)%n",
        tally.agreeing(),
        tally.total(),
        100 * tally.agreement(),
        tally.coveredKinds(),
        tally.knownDifferences().size());
    tally.knownDifferences().forEach(o -> System.out.println("  known difference: " + describe(o)));

    List<ConformanceTally.Outcome> wrong = tally.coveredDisagreements();
    if (!wrong.isEmpty()) {
      fail(
          wrong.size()
              + " example(s) of kinds the library covers disagree:\n  "
              + wrong.stream()
                  .map(BuiltinLibraryConformanceTest::describe)
                  .collect(Collectors.joining("\n  ")));
    }
    List<String> stale =
        tally.staleKnownDifferences().stream().map(ConformanceTally.Outcome::id).toList();
    assertTrue(
        stale.isEmpty(),
        "listed as known differences but agree; remove them from the list: " + stale);
    List<String> seen =
        tally.knownDifferences().stream().map(ConformanceTally.Outcome::id).toList();
    assertTrue(
        seen.containsAll(KNOWN_DIFFERENCES.keySet()),
        "known differences not found in the fixture file: "
            + KNOWN_DIFFERENCES.keySet().stream().filter(id -> !seen.contains(id)).toList());
    for (ConformanceTally.Outcome known : tally.knownDifferences()) {
      assertTrue(
          decidedByTheListedRule(known),
          "not decided by the rule its entry names: " + describe(known));
    }
    assertTrue(
        tally.agreement() >= MIN_AGREEMENT,
        String.format(
            "raw agreement is %.1f%%, below %.0f%%", 100 * tally.agreement(), 100 * MIN_AGREEMENT));
  }

  private static ConformanceTally.Outcome evaluate(
      HealthEvaluator evaluator, Map<String, Object> line, int lineNumber) {
    if (!(line.get("object") instanceof Map<?, ?> rawObject)
        || !(line.get("expected") instanceof String expected)) {
      throw new IllegalArgumentException(
          FIXTURE + ":" + lineNumber + ": expected {\"id\", \"expected\", \"object\"}");
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> object = (Map<String, Object>) rawObject;
    String apiVersion = String.valueOf(object.get("apiVersion"));
    String kind = String.valueOf(object.get("kind"));
    ResourceStatus actual = evaluator.status(object);
    String id = String.valueOf(line.get("id"));
    return new ConformanceTally.Outcome(
        id,
        GroupKind.of(apiVersion, kind).toString(),
        evaluator.coversKind(apiVersion, kind),
        expected,
        actual,
        KNOWN_DIFFERENCES.get(id));
  }

  /**
   * The split cross-check: examples decided by entries whose description names the documentation
   * they were written from (re-derived from the operator's documentation before they were run
   * against these examples), apart from the rest.
   */
  private static void printDocumentedEntries(ConformanceTally tally) throws IOException {
    String yaml;
    try (var in = BuiltinLibrary.class.getResourceAsStream(BuiltinLibrary.RESOURCE)) {
      yaml = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    List<HealthCheckExpr> entries =
        new HealthCheckExprsYaml().parse(BuiltinLibrary.LIST_NAME, yaml);
    List<String> comments = HealthLibraryDoc.entryComments(yaml);
    Set<String> documented = new HashSet<>();
    for (int i = 0; i < entries.size(); i++) {
      if (comments.get(i).contains("(source: ")) {
        documented.add(entries.get(i).label());
      }
    }
    int total = 0;
    int agree = 0;
    for (ConformanceTally.Outcome o : tally.outcomes()) {
      DecidedBy by = o.actual().decidedBy();
      String entry =
          by instanceof DecidedBy.BuiltinCel b
              ? b.entry()
              : by instanceof DecidedBy.HeldBack h ? h.entry() : null;
      if (entry != null && documented.contains(entry) && o.knownDifference() == null) {
        total++;
        agree += o.agrees() ? 1 : 0;
      }
    }
    System.out.printf(
        "entries naming a documentation source (%d): %d/%d examples they decide agree%n",
        documented.size(), agree, total);
  }

  /** Whether the outcome is the one the rule named as the example's known difference gives. */
  private static boolean decidedByTheListedRule(ConformanceTally.Outcome known) {
    ResourceStatus actual = known.actual();
    if (known.knownDifference().equals(DELETING)) {
      return actual.status() == Status.Terminating;
    }
    return actual.status() == Status.InProgress && GenerationCheck.REASON.equals(actual.reason());
  }

  private static String describe(ConformanceTally.Outcome o) {
    return o.id()
        + ": expected "
        + o.expected()
        + ", got "
        + o.actual().status()
        + (o.actual().message().isEmpty() ? "" : " (" + o.actual().message() + ")");
  }
}
