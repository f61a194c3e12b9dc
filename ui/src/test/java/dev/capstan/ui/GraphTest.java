package dev.capstan.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.api.kustomize.Kustomization;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class GraphTest {
  private final List<Kustomization> chain =
      List.of(
          UiFixtures.ks("infra", "base", "True", "ReconciliationSucceeded", "True", false, "[]"),
          UiFixtures.ks("infra", "db", "Unknown", "Progressing", null, false, "[{name: base}]"),
          UiFixtures.ks(
              "apps",
              "web",
              "False",
              "DependencyNotReady",
              null,
              false,
              "[{name: db, namespace: infra}, {apiVersion: apps/v1, kind: Deployment, name:"
                  + " cache}]"));

  @Test
  void edgesGoFromDependentToDependencyAcrossNamespacesAndKinds() {
    Graph graph = Graph.of(chain);

    assertEquals(
        List.of(
            "Deployment/apps/cache",
            "Kustomization/apps/web",
            "Kustomization/infra/base",
            "Kustomization/infra/db"),
        graph.nodes().stream().map(Graph.Node::id).toList());
    assertEquals(
        List.of(
            new Graph.Edge("Kustomization/infra/db", "Kustomization/infra/base", false),
            new Graph.Edge("Kustomization/apps/web", "Kustomization/infra/db", true),
            new Graph.Edge("Kustomization/apps/web", "Deployment/apps/cache", true)),
        graph.edges());
    Graph.Node cache = graph.nodes().get(0);
    assertFalse(cache.kustomization());
    assertEquals(NodeState.UNKNOWN, cache.state());
  }

  @Test
  void anEdgeIsWaitingOnlyWhenTheDependentSaysSo() {
    Graph graph =
        Graph.of(
            List.of(
                UiFixtures.ks("a", "x", "Unknown", "Progressing", null, false, "[]"),
                UiFixtures.ks("a", "y", "False", "BuildFailed", null, false, "[{name: x}]")));

    assertFalse(graph.edges().get(0).waiting(), "y failed for its own reason");
  }

  @Test
  void collapsingANamespaceMergesItsNodesAndEdges() {
    Graph graph = Graph.of(chain).collapse(Set.of("infra"));

    assertEquals(
        List.of("Deployment/apps/cache", "Kustomization/apps/web", "Namespace/infra"),
        graph.nodes().stream().map(Graph.Node::id).toList());
    Graph.Node infra = graph.nodes().get(2);
    assertEquals(2, infra.members());
    assertEquals(NodeState.UNKNOWN, infra.state(), "the worst of Ready and Unknown");
    assertEquals(
        List.of(
            new Graph.Edge("Kustomization/apps/web", "Namespace/infra", true),
            new Graph.Edge("Kustomization/apps/web", "Deployment/apps/cache", true)),
        graph.edges());
  }

  @Test
  void layoutPlacesDependenciesBeforeDependentsAndEscapesNames() {
    Graph graph = Graph.of(chain);
    Layout layout = new GraphLayout().layout(graph);
    String svg = GraphSvg.render(graph, layout);

    assertTrue(
        layout.nodes().get("Kustomization/infra/base").x()
            < layout.nodes().get("Kustomization/infra/db").x());
    assertTrue(
        layout.nodes().get("Kustomization/infra/db").x()
            < layout.nodes().get("Kustomization/apps/web").x());
    assertEquals(3, layout.edges().size());
    layout.edges().values().forEach(points -> assertTrue(points.size() >= 2));
    assertTrue(svg.contains("class=\"edge waiting\" data-from=\"Kustomization/apps/web\""), svg);
    assertTrue(svg.contains("data-namespace=\"infra\""));

    Graph hostile =
        Graph.of(
            List.of(
                UiFixtures.ks(
                    "a",
                    "x",
                    "True",
                    "ok",
                    null,
                    false,
                    "[{apiVersion: v1, kind: ConfigMap, name: \"<script>\"}]")));
    String escaped = GraphSvg.render(hostile, new GraphLayout().layout(hostile));
    assertFalse(escaped.contains("<script>"));
    assertTrue(escaped.contains("&lt;script&gt;"));
  }

  @Test
  void aThousandNodesAcrossNamespacesAllGetPlaces() {
    List<Kustomization> many = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      String deps =
          i % 10 == 0
              ? "[]"
              : "[{name: k"
                  + (i - 1)
                  + "}"
                  + (i > 20
                      ? ", {name: k" + (i - 17) + ", namespace: ns" + ((i - 17) % 20) + "}"
                      : "")
                  + "]";
      many.add(
          UiFixtures.ks(
              "ns" + (i % 20),
              "k" + i,
              i % 7 == 0 ? "False" : "True",
              "DependencyNotReady",
              null,
              false,
              deps.replace(
                  "{name: k" + (i - 1) + "}",
                  "{name: k" + (i - 1) + ", namespace: ns" + ((i - 1) % 20) + "}")));
    }
    Graph graph = Graph.of(many);
    Layout layout = new GraphLayout().layout(graph);
    String svg = GraphSvg.render(graph, layout);

    // Speed is measured by ui/bench/ui.sh; here: every node and edge placed, boxes disjoint.
    assertEquals(1000, layout.nodes().size());
    assertEquals(graph.edges().size(), layout.edges().size());
    assertEquals(20, layout.namespaces().size());
    assertTrue(svg.contains("data-nodes=\"1000\""));
    var boxes = List.copyOf(layout.namespaces().values());
    for (int i = 0; i < boxes.size(); i++) {
      for (int j = i + 1; j < boxes.size(); j++) {
        Layout.Box a = boxes.get(i);
        Layout.Box b = boxes.get(j);
        assertTrue(
            a.x() + a.width() <= b.x()
                || b.x() + b.width() <= a.x()
                || a.y() + a.height() <= b.y()
                || b.y() + b.height() <= a.y(),
            "namespace boxes overlap: " + a + " " + b);
      }
    }
  }
}
