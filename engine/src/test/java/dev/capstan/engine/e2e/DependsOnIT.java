package dev.capstan.engine.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.api.source.GitRepository;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** dependsOn holds the app until infra is Ready, and the app follows as soon as it is. */
class DependsOnIT extends EngineTestBase {
  private static final String NO_NODE = "      nodeSelector: {capstan.dev/no-such-node: \"true\"}";

  @Test
  void theAppWaitsForInfra() {
    git.commit(
        Map.of(
            "infra/db.yaml", Manifests.deployment("db", NO_NODE, 600),
            "app/config.yaml", Manifests.configMap("app-settings", "x")));
    engine.gitRepository("repo", git.url());
    engine.kustomization("infra", "repo", "./infra", "  wait: true\n  timeout: 10m");
    engine.kustomization("app", "repo", "./app", "  dependsOn: [{name: infra}]");

    var held =
        engine.awaitCondition(
            "app",
            "Ready",
            Duration.ofSeconds(60),
            c -> "DependencyNotReady".equals(c.getReason()));
    assertEquals("False", held.getStatus());
    assertTrue(
        held.getMessage().contains("dependency '" + ns() + "/infra' is not ready"),
        held.getMessage());
    // infra fetches, applies and then waits for its Deployment (which cannot schedule); until then
    // the app is held, whatever infra's own state on the way.
    engine.awaitCondition(
        "infra", "Ready", Duration.ofSeconds(60), c -> "Unknown".equals(c.getStatus()));
    assertEquals(
        "DependencyNotReady",
        engine.condition("app", "Ready").orElseThrow().getReason(),
        "the app is still held");
    assertNull(
        engine.client.configMaps().inNamespace(ns()).withName("app-settings").get(),
        "app not applied yet");

    // Fixing infra makes it Ready, which wakes the app at once (no polling interval involved:
    // the app's retryInterval is its 10m interval).
    String fixed = git.commit(Map.of("infra/db.yaml", Manifests.deployment("db", "", 600)));
    engine.requestReconcile(GitRepository.class, "repo");
    engine.awaitCondition("infra", "Ready", Duration.ofSeconds(90), EngineTestBase::isTrue);
    var ready =
        engine.awaitCondition("app", "Ready", Duration.ofSeconds(30), EngineTestBase::isTrue);
    assertEquals("Applied revision: " + fixed, ready.getMessage());
    assertEquals(
        "x",
        engine
            .client
            .configMaps()
            .inNamespace(ns())
            .withName("app-settings")
            .get()
            .getData()
            .get("value"));
  }
}
