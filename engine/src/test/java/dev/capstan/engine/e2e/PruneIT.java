package dev.capstan.engine.e2e;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.api.source.GitRepository;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** An object whose file was removed from the source is deleted, and leaves the inventory. */
class PruneIT extends EngineTestBase {

  @Test
  void aRemovedFilesObjectIsPruned() {
    git.commit(
        Map.of(
            "app/keep.yaml", Manifests.configMap("keep", "1"),
            "app/drop.yaml", Manifests.configMap("drop", "1")));
    engine.gitRepository("repo", git.url());
    engine.kustomization("app", "repo", "./app", "");
    engine.awaitCondition("app", "Ready", Duration.ofSeconds(60), EngineTestBase::isTrue);
    assertNotNull(engine.client.configMaps().inNamespace(ns()).withName("drop").get());

    Map<String, String> removal = new HashMap<>();
    removal.put("app/drop.yaml", null);
    String next = git.commit(removal);
    engine.requestReconcile(GitRepository.class, "repo");
    engine.awaitCondition(
        "app",
        "Ready",
        Duration.ofSeconds(60),
        c -> ("Applied revision: " + next).equals(c.getMessage()));
    EngineFixture.eventually(Duration.ofSeconds(30))
        .until(() -> engine.client.configMaps().inNamespace(ns()).withName("drop").get() == null);
    assertNotNull(engine.client.configMaps().inNamespace(ns()).withName("keep").get());
    var entries = engine.kustomization("app").getStatus().inventory().entries();
    assertTrue(entries.stream().noneMatch(e -> e.id().contains("_drop_")), entries.toString());
    assertTrue(
        entries.stream().anyMatch(e -> e.id().equals(ns() + "_keep__ConfigMap")),
        entries.toString());
  }
}
