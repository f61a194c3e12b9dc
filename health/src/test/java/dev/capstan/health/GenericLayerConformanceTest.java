package dev.capstan.health;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capstan.health.cel.BuiltinLibrary;
import dev.capstan.health.status.DecidedBy;
import dev.capstan.health.status.ResourceStatus;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * How the generic layer alone would do on every example of {@code conformance/crd-examples.jsonl}:
 * the library is left out, so each custom resource is treated as a kind nobody wrote a rule for. No
 * rule of the generic layer was written from these examples, so this is an estimate of how it does
 * on kinds it has never seen. Most examples the generic layer cannot get right are objects without
 * a status (the fixtures expect InProgress, kstatus's default says Current, and Capstan keeps
 * kstatus's answer for kinds without a rule) or kinds that report health in fields of their own; so
 * two figures: the raw agreement must not fall below {@value #MIN_AGREEMENT}, and where one of the
 * generic layer's own steps (conditions, condition generations, status vocabulary) decided,
 * agreement must reach {@value #MIN_SIGNAL_AGREEMENT}. {@code -Dcapstan.listDisagreements=true}
 * lists every example that disagrees.
 */
class GenericLayerConformanceTest {
  static final double MIN_AGREEMENT = 0.50;
  static final double MIN_SIGNAL_AGREEMENT = 0.80;

  private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {};
  private final ObjectMapper json = new ObjectMapper();

  @Test
  void genericLayerAloneAgreesWithMostExamples() throws IOException {
    HealthEvaluator generic =
        HealthEvaluator.create(List.of(), BuiltinLibrary.none(), Fixtures.CLOCK);
    Map<String, Integer> confusion = new TreeMap<>();
    Map<String, Integer> byStep = new TreeMap<>();
    int total = 0;
    int agree = 0;
    int signalTotal = 0;
    int signalAgree = 0;
    for (String line : HealthFixtures.lines(BuiltinLibraryConformanceTest.FIXTURE)) {
      Map<String, Object> example = json.readValue(line, MAP);
      @SuppressWarnings("unchecked")
      ResourceStatus actual = generic.status((Map<String, Object>) example.get("object"));
      String expected = String.valueOf(example.get("expected"));
      total++;
      boolean same = actual.status().name().equals(expected);
      agree += same ? 1 : 0;
      if (actual.decidedBy() instanceof DecidedBy.Generic g
          && g.step() != DecidedBy.GenericStep.DEFAULT) {
        signalTotal++;
        signalAgree += same ? 1 : 0;
      }
      byStep.merge(
          actual.decidedBy().describe() + (same ? " agrees" : " disagrees"), 1, Integer::sum);
      if (!same) {
        confusion.merge("expected " + expected + ", got " + actual.status(), 1, Integer::sum);
      }
      if (!same && Boolean.getBoolean("capstan.listDisagreements")) {
        System.out.println(
            "generic: "
                + example.get("id")
                + ": expected "
                + expected
                + ", got "
                + actual.status()
                + " by "
                + actual.decidedBy().describe()
                + " ("
                + actual.reason()
                + ")");
      }
    }
    double agreement = (double) agree / total;
    System.out.printf("generic layer alone: %d/%d = %.1f%%%n", agree, total, 100 * agreement);
    confusion.forEach((k, v) -> System.out.println("  " + k + ": " + v));
    byStep.forEach((k, v) -> System.out.println("  " + k + ": " + v));
    double signalAgreement = (double) signalAgree / signalTotal;
    System.out.printf(
        "decided by a generic step other than the default: %d/%d = %.1f%%%n",
        signalAgree, signalTotal, 100 * signalAgreement);
    assertTrue(
        agreement >= MIN_AGREEMENT, String.format("generic agreement %.1f%%", 100 * agreement));
    assertTrue(
        signalAgreement >= MIN_SIGNAL_AGREEMENT,
        String.format("generic steps' agreement %.1f%%", 100 * signalAgreement));
  }
}
