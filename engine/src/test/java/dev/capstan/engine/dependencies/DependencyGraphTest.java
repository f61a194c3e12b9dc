package dev.capstan.engine.dependencies;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.engine.core.NamespacedName;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DependencyGraphTest {
  private static NamespacedName k(String name) {
    return new NamespacedName("ns", name);
  }

  @Test
  void chainHasNoCycle() {
    DependencyGraph<NamespacedName> graph =
        new DependencyGraph<>(
            Map.of(k("app"), List.of(k("infra")), k("infra"), List.of(k("crds"))));
    assertTrue(graph.cycleThrough(k("app")).isEmpty());
    assertTrue(graph.cycleThrough(k("crds")).isEmpty());
  }

  @Test
  void everyMemberReportsTheSameCycle() {
    DependencyGraph<NamespacedName> graph =
        new DependencyGraph<>(
            Map.of(k("c"), List.of(k("a")), k("a"), List.of(k("b")), k("b"), List.of(k("c"))));
    List<NamespacedName> expected = List.of(k("a"), k("b"), k("c"));
    assertEquals(expected, graph.cycleThrough(k("a")).orElseThrow());
    assertEquals(expected, graph.cycleThrough(k("b")).orElseThrow());
    assertEquals(expected, graph.cycleThrough(k("c")).orElseThrow());
    assertEquals("ns/a -> ns/b -> ns/c -> ns/a", DependencyGraph.describe(expected));
  }

  @Test
  void dependentOfACycleIsNotAMember() {
    DependencyGraph<NamespacedName> graph =
        new DependencyGraph<>(
            Map.of(k("x"), List.of(k("a")), k("a"), List.of(k("b")), k("b"), List.of(k("a"))));
    assertTrue(graph.cycleThrough(k("x")).isEmpty());
    assertEquals(List.of(k("a"), k("b")), graph.cycleThrough(k("b")).orElseThrow());
  }

  @Test
  void selfDependencyAndDiamonds() {
    assertEquals(
        List.of(k("s")),
        new DependencyGraph<>(Map.of(k("s"), List.of(k("s")))).cycleThrough(k("s")).orElseThrow());
    DependencyGraph<NamespacedName> diamond =
        new DependencyGraph<>(
            Map.of(
                k("top"), List.of(k("l"), k("r")),
                k("l"), List.of(k("base")),
                k("r"), List.of(k("base"))));
    assertTrue(diamond.cycleThrough(k("top")).isEmpty());
  }

  @Test
  void cycleAcrossNamespacesAndMissingNodes() {
    NamespacedName other = new NamespacedName("other", "db");
    DependencyGraph<NamespacedName> graph =
        new DependencyGraph<>(
            Map.of(k("app"), List.of(other, k("missing")), other, List.of(k("app"))));
    assertEquals(List.of(k("app"), other), graph.cycleThrough(other).orElseThrow());
  }
}
