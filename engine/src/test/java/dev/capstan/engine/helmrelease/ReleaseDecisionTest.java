package dev.capstan.engine.helmrelease;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.capstan.api.helm.HelmReleaseStatus.ReleaseAction;
import dev.capstan.api.helm.InstallRemediation;
import dev.capstan.api.helm.UpgradeRemediation;
import dev.capstan.engine.conditions.HelmReleaseStatuses.FailureCounts;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The decision after each observation in {@code helmrelease/decision/cases.yaml}. */
class ReleaseDecisionTest {
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  @JsonIgnoreProperties(ignoreUnknown = true)
  record Counts(long failures, long installFailures, long upgradeFailures) {}

  /** One case of the fixture. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  record Case(
      String name,
      InstallRemediation install,
      UpgradeRemediation upgrade,
      ReleaseAction lastAction,
      Counts failures,
      ReleaseDecision.Latest latest,
      Boolean deployed,
      boolean rollbackTarget,
      boolean inSync,
      boolean waitPending,
      String expect,
      String action,
      String message) {

    ReleaseDecision.Observed observed() {
      Counts counts = failures == null ? new Counts(0, 0, 0) : failures;
      return new ReleaseDecision.Observed(
          install == null ? new InstallRemediation(null, null, null) : install,
          upgrade == null ? new UpgradeRemediation(null, null, null, null) : upgrade,
          lastAction,
          new FailureCounts(counts.failures(), counts.installFailures(), counts.upgradeFailures()),
          latest,
          deployed == null ? rollbackTarget : deployed,
          rollbackTarget,
          inSync,
          waitPending);
    }
  }

  static Stream<Named<Case>> cases() throws IOException {
    try (InputStream in =
        ReleaseDecisionTest.class.getResourceAsStream("/helmrelease/decision/cases.yaml")) {
      List<Case> cases = YAML.readValue(in, new TypeReference<List<Case>>() {});
      return cases.stream().map(c -> Named.of(c.name(), c));
    }
  }

  @ParameterizedTest
  @MethodSource("cases")
  void decides(Case c) {
    ReleaseDecision.Next next = ReleaseDecision.next(c.observed());

    assertEquals(c.expect(), describe(next));
    if (c.message() != null) {
      assertEquals(c.message(), ((ReleaseDecision.Stall) next).message());
    }
    if (c.action() != null) {
      assertEquals(c.action(), ((ReleaseDecision.Release) next).upgrade() ? "upgrade" : "install");
    }
  }

  private static String describe(ReleaseDecision.Next next) {
    if (next instanceof ReleaseDecision.Look look) {
      return look.waitPending() ? "Look waiting" : "Look";
    }
    if (next instanceof ReleaseDecision.Stall stall) {
      return "Stall " + stall.reason().text();
    }
    return next.getClass().getSimpleName();
  }
}
