package dev.capstan.engine.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Kustomizations that depend on each other in a circle are all Stalled, naming the circle. */
class DependencyCycleIT extends EngineTestBase {

  @Test
  void everyMemberOfACycleIsStalled() {
    git.commit(Map.of("app/cm.yaml", Manifests.configMap("cm", "1")));
    engine.gitRepository("repo", git.url());
    engine.kustomization("a", "repo", "./app", "  dependsOn: [{name: b}]");
    engine.kustomization("b", "repo", "./app", "  dependsOn: [{name: c}]");
    engine.kustomization("c", "repo", "./app", "  dependsOn: [{name: a}]");
    engine.kustomization("outside", "repo", "./app", "  dependsOn: [{name: a}]");

    String cycle = "dependency cycle: %1$s/a -> %1$s/b -> %1$s/c -> %1$s/a".formatted(ns());
    for (String member : new String[] {"a", "b", "c"}) {
      var stalled =
          engine.awaitCondition(member, "Stalled", Duration.ofSeconds(60), EngineTestBase::isTrue);
      assertEquals("DependencyCycle", stalled.getReason());
      assertEquals(cycle, stalled.getMessage());
      assertEquals("False", engine.condition(member, "Ready").orElseThrow().getStatus());
    }
    var outside =
        engine.awaitCondition(
            "outside",
            "Ready",
            Duration.ofSeconds(30),
            c -> "DependencyNotReady".equals(c.getReason()));
    assertEquals("False", outside.getStatus());
  }
}
