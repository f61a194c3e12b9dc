package dev.capstan.engine.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Condition;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Each kind of bad input is a clear reason on its own Kustomization; the others keep working. */
class BadInputIT extends EngineTestBase {
  private static final String UNSERVED =
      """
      apiVersion: nowhere.capstan.dev/v1
      kind: Phantom
      metadata: {name: ghost}
      """;

  @Test
  void badInputIsReportedAndTheGoodOneIsApplied() {
    git.commit(
        Map.of(
            "good/cm.yaml", Manifests.configMap("good", "1"), "unserved/phantom.yaml", UNSERVED));
    engine.gitRepository("repo", git.url());
    engine.kustomization("no-source", "missing-repo", "./good", "");
    engine.kustomization("bad-path", "repo", "./does-not-exist", "");
    engine.kustomization(
        "bad-cel",
        "repo",
        "./good",
        """
          healthCheckExprs:
          - {apiVersion: v1, kind: ConfigMap, current: "data.value == ("}
        """);
    engine.kustomization(
        "bad-ready-expr",
        "repo",
        "./good",
        "  dependsOn: [{name: good, readyExpr: \"dep.status.(\"}]");
    engine.kustomization("no-dependency", "repo", "./good", "  dependsOn: [{name: nobody}]");
    engine.kustomization("unserved", "repo", "./unserved", "");
    engine.kustomization("good", "repo", "./good", "");

    engine.awaitCondition("good", "Ready", Duration.ofSeconds(60), EngineTestBase::isTrue);
    Condition noSource = awaitReason("no-source", "ArtifactFailed");
    assertEquals("GitRepository '" + ns() + "/missing-repo' not found", noSource.getMessage());
    Condition badPath = awaitReason("bad-path", "BuildFailed");
    assertTrue(badPath.getMessage().contains("does-not-exist"), badPath.getMessage());
    assertEquals("True", engine.condition("bad-path", "Stalled").orElseThrow().getStatus());
    Condition badCel = awaitReason("bad-cel", "InvalidCELExpression");
    assertTrue(badCel.getMessage().startsWith("spec.healthCheckExprs: "), badCel.getMessage());
    assertTrue(badCel.getMessage().contains("data.value == ("), badCel.getMessage());
    Condition badReadyExpr = awaitReason("bad-ready-expr", "InvalidCELExpression");
    assertTrue(
        badReadyExpr.getMessage().startsWith("spec.dependsOn[0].readyExpr: "),
        badReadyExpr.getMessage());
    Condition noDependency = awaitReason("no-dependency", "DependencyNotReady");
    assertEquals("dependency '" + ns() + "/nobody' not found", noDependency.getMessage());
    Condition unserved = awaitReason("unserved", "ApplyFailed");
    assertTrue(unserved.getMessage().contains("Phantom"), unserved.getMessage());
    assertTrue(
        !unserved.getMessage().contains("Exception"), "no stack traces: " + unserved.getMessage());
  }

  private static Condition awaitReason(String name, String reason) {
    Condition ready =
        engine.awaitCondition(
            name, "Ready", Duration.ofSeconds(60), c -> reason.equals(c.getReason()));
    assertEquals("False", ready.getStatus());
    return ready;
  }
}
