package dev.capstan.engine.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import dev.capstan.api.source.GitRepository;
import io.fabric8.kubernetes.api.model.ConfigMap;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A commit is applied: Ready=True names its revision, and a new commit replaces it. */
class CommitAppliedIT extends EngineTestBase {

  @Test
  void aCommitIsAppliedAndTheNextOneToo() {
    String first =
        git.commit(
            Map.of(
                "app/config.yaml", Manifests.configMap("settings", "one"),
                "app/web.yaml", Manifests.deployment("web", "", 600)));
    engine.gitRepository("repo", git.url());
    engine.kustomization("app", "repo", "./app", "  wait: true\n  timeout: 2m");

    var ready =
        engine.awaitCondition(
            "app", "Ready", Duration.ofSeconds(90), c -> "True".equals(c.getStatus()));
    assertEquals("Applied revision: " + first, ready.getMessage());
    assertEquals(first, engine.kustomization("app").getStatus().lastAppliedRevision());
    assertEquals("True", engine.condition("app", "Healthy").orElseThrow().getStatus());
    ConfigMap settings =
        engine.client.configMaps().inNamespace(engine.namespace).withName("settings").get();
    assertEquals("one", settings.getData().get("value"));
    assertEquals("app", settings.getMetadata().getLabels().get("kustomize.capstan.dev/name"));
    assertNotNull(engine.kustomization("app").getStatus().inventory());

    String second = git.commit(Map.of("app/config.yaml", Manifests.configMap("settings", "two")));
    engine.requestReconcile(GitRepository.class, "repo");
    engine.awaitCondition(
        "app",
        "Ready",
        Duration.ofSeconds(60),
        c -> ("Applied revision: " + second).equals(c.getMessage()));
    assertEquals(
        "two",
        engine
            .client
            .configMaps()
            .inNamespace(engine.namespace)
            .withName("settings")
            .get()
            .getData()
            .get("value"));
    assertEquals(second, engine.kustomization("app").getStatus().lastAttemptedRevision());
  }
}
