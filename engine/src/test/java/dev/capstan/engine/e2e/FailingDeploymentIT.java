package dev.capstan.engine.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A Deployment that cannot progress turns Ready False naming it, long before spec.timeout. */
class FailingDeploymentIT extends EngineTestBase {

  @Test
  void aStuckDeploymentFailsFast() {
    git.commit(
        Map.of(
            "app/ok.yaml", Manifests.configMap("fine", "1"),
            "app/stuck.yaml",
                Manifests.deployment(
                    "stuck", "      nodeSelector: {capstan.dev/no-such-node: \"true\"}", 5)));
    engine.gitRepository("repo", git.url());
    Instant start = Instant.now();
    engine.kustomization(
        "app", "repo", "./app", "  wait: true\n  timeout: 10m\n  retryInterval: 10m");

    var ready =
        engine.awaitCondition(
            "app",
            "Ready",
            Duration.ofSeconds(120),
            c -> "HealthCheckFailed".equals(c.getReason()));
    Duration took = Duration.between(start, Instant.now());
    assertEquals("False", ready.getStatus());
    assertTrue(
        ready.getMessage().contains("Deployment/" + ns() + "/stuck is Failed"), ready.getMessage());
    assertTrue(
        !ready.getMessage().contains("ConfigMap"),
        "healthy objects are not named: " + ready.getMessage());
    assertTrue(
        took.compareTo(Duration.ofMinutes(2)) < 0, "failed after " + took + ", timeout is 10m");
    var healthy =
        engine.awaitCondition(
            "app", "Healthy", Duration.ofSeconds(30), c -> "False".equals(c.getStatus()));
    assertTrue(
        healthy.getMessage().contains("Deployment/" + ns() + "/stuck"), healthy.getMessage());
    assertEquals(
        "ProgressingWithRetry", engine.condition("app", "Reconciling").orElseThrow().getReason());
  }
}
