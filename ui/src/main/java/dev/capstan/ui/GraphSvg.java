package dev.capstan.ui;

import java.util.List;
import java.util.Locale;

/**
 * Draws a laid-out graph as SVG: namespace boxes (their label collapses or expands them), nodes
 * coloured by state and linked to the Kustomization's page, edges with an arrow at the dependency,
 * waiting edges highlighted. Every name is escaped: it is the tenant's text.
 */
final class GraphSvg {
  private GraphSvg() {}

  static String render(Graph graph, Layout layout) {
    StringBuilder svg = new StringBuilder(256 + graph.nodes().size() * 400);
    svg.append(
        String.format(
            Locale.ROOT,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"graph-svg\" viewBox=\"0 0 %.0f %.0f\""
                + " width=\"%.0f\" height=\"%.0f\" data-nodes=\"%d\" data-edges=\"%d\">",
            layout.width(),
            layout.height(),
            layout.width(),
            layout.height(),
            graph.nodes().size(),
            graph.edges().size()));
    svg.append(
        "<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"1\" refY=\"5\" markerWidth=\"7\""
            + " markerHeight=\"7\" orient=\"auto-start-reverse\"><path"
            + " d=\"M0,0L10,5L0,10z\"/></marker></defs>");
    layout.namespaces().forEach((ns, box) -> namespace(svg, ns, box));
    for (Graph.Edge edge : graph.edges()) {
      edge(svg, edge, layout.edges().get(edge.key()));
    }
    for (Graph.Node node : graph.nodes()) {
      node(svg, node, layout.nodes().get(node.id()));
    }
    return svg.append("</svg>").toString();
  }

  private static void namespace(StringBuilder svg, String ns, Layout.Box box) {
    svg.append("<g class=\"ns\" data-namespace=\"")
        .append(Html.escape(ns))
        .append("\">")
        .append(rect(box, 6))
        .append(text(" class=\"ns-label\"", box, 8, 15, ns))
        .append("</g>");
  }

  private static void edge(StringBuilder svg, Graph.Edge edge, List<Layout.Point> points) {
    if (points == null || points.isEmpty()) {
      return;
    }
    StringBuilder d = new StringBuilder();
    for (int i = 0; i < points.size(); i++) {
      d.append(i == 0 ? 'M' : 'L')
          .append(String.format(Locale.ROOT, "%.1f,%.1f", points.get(i).x(), points.get(i).y()));
    }
    svg.append("<path class=\"edge")
        .append(edge.waiting() ? " waiting" : "")
        .append("\" data-from=\"")
        .append(Html.escape(edge.from()))
        .append("\" data-to=\"")
        .append(Html.escape(edge.to()))
        .append("\" d=\"")
        .append(d)
        .append("\" marker-start=\"url(#arrow)\"/>");
  }

  private static void node(StringBuilder svg, Graph.Node node, Layout.Box box) {
    String label = node.members() > 1 ? node.name() + " (" + node.members() + ")" : node.name();
    String title =
        node.kind() + " " + node.namespace() + "/" + node.name() + ": " + node.state().cssClass();
    boolean link = node.kustomization();
    if (link) {
      svg.append("<a href=\"#/ks/")
          .append(Html.escape(node.namespace()))
          .append('/')
          .append(Html.escape(node.name()))
          .append("\">");
    }
    svg.append(
            String.format(
                Locale.ROOT,
                "<g class=\"node %s%s\" data-id=\"%s\" data-state=\"%s\"><title>%s</title>",
                node.state().cssClass(),
                link ? "" : " external",
                Html.escape(node.id()),
                node.state().cssClass(),
                Html.escape(title)))
        .append(rect(box, 4))
        .append(text("", box, 10, 18, label))
        .append("</g>");
    if (link) {
      svg.append("</a>");
    }
  }

  /** A box's outline with rounded corners of {@code radius}. */
  private static String rect(Layout.Box box, int radius) {
    return String.format(
        Locale.ROOT,
        "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" rx=\"%d\"/>",
        box.x(),
        box.y(),
        box.width(),
        box.height(),
        radius);
  }

  /** Escaped {@code content} placed at ({@code dx}, {@code dy}) inside a box. */
  private static String text(String attributes, Layout.Box box, int dx, int dy, String content) {
    return String.format(
        Locale.ROOT,
        "<text%s x=\"%.1f\" y=\"%.1f\">%s</text>",
        attributes,
        box.x() + dx,
        box.y() + dy,
        Html.escape(content));
  }
}
