package dev.capstan.ui;

import java.util.Set;

/**
 * The graph page's SVG for the current Kustomizations: the layout is kept for the last structure
 * (nodes and edges) and each collapse choice, so a status change only recolours.
 */
final class GraphView {
  private final GraphLayout layouts;
  private String lastStructure;
  private Layout lastLayout;

  GraphView(GraphLayout layouts) {
    this.layouts = layouts;
  }

  String svg(Graph full, Set<String> collapsed) {
    Graph graph = full.collapse(collapsed);
    return GraphSvg.render(graph, layout(graph));
  }

  private synchronized Layout layout(Graph graph) {
    String structure = graph.structure();
    if (!structure.equals(lastStructure)) {
      lastLayout = layouts.layout(graph);
      lastStructure = structure;
    }
    return lastLayout;
  }
}
