package dev.capstan.ui;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.eclipse.elk.alg.layered.options.LayeredOptions;
import org.eclipse.elk.core.RecursiveGraphLayoutEngine;
import org.eclipse.elk.core.math.ElkPadding;
import org.eclipse.elk.core.options.CoreOptions;
import org.eclipse.elk.core.options.Direction;
import org.eclipse.elk.core.options.EdgeRouting;
import org.eclipse.elk.core.util.BasicProgressMonitor;
import org.eclipse.elk.graph.ElkBendPoint;
import org.eclipse.elk.graph.ElkEdge;
import org.eclipse.elk.graph.ElkEdgeSection;
import org.eclipse.elk.graph.ElkNode;
import org.eclipse.elk.graph.util.ElkGraphUtil;

/**
 * Lays the graph out with Eclipse ELK's layered algorithm (dependencies to the left of their
 * dependents, as few crossings as it finds), in two levels: each namespace on its own, then the
 * namespace boxes, with the edges between namespaces as a graph of their own. Laying out all nodes
 * in one hierarchical run routes cross-namespace edges more nicely but takes seconds at a thousand
 * nodes; two levels take a fraction of one. Edges between namespaces are drawn straight.
 */
final class GraphLayout {
  static final double NODE_HEIGHT = 28;
  private static final double CHAR_WIDTH = 7;
  private static final double NODE_PADDING = 24;
  private static final double TOP = 22;
  private static final double SIDE = 10;

  Layout layout(Graph graph) {
    Map<String, List<Graph.Node>> byNamespace = new LinkedHashMap<>();
    graph
        .nodes()
        .forEach(n -> byNamespace.computeIfAbsent(n.namespace(), ns -> new ArrayList<>()).add(n));
    Map<String, String> namespaceOf = new HashMap<>();
    graph.nodes().forEach(n -> namespaceOf.put(n.id(), n.namespace()));

    Map<String, Layout.Box> nodes = new HashMap<>();
    Map<String, List<Layout.Point>> edges = new HashMap<>();
    Map<String, double[]> sizes = new LinkedHashMap<>();
    Map<String, Map<String, Layout.Box>> localNodes = new HashMap<>();
    Map<String, Map<String, List<Layout.Point>>> localEdges = new HashMap<>();
    for (var entry : byNamespace.entrySet()) {
      String ns = entry.getKey();
      List<Graph.Edge> inside =
          graph.edges().stream()
              .filter(
                  e -> ns.equals(namespaceOf.get(e.from())) && ns.equals(namespaceOf.get(e.to())))
              .toList();
      ElkNode root = root();
      root.setProperty(CoreOptions.PADDING, new ElkPadding(TOP, SIDE, SIDE, SIDE));
      Map<String, ElkNode> elkNodes = new LinkedHashMap<>();
      for (Graph.Node node : entry.getValue()) {
        ElkNode elk = ElkGraphUtil.createNode(root);
        elk.setDimensions(width(node), NODE_HEIGHT);
        elkNodes.put(node.id(), elk);
      }
      Map<String, ElkEdge> elkEdges = new LinkedHashMap<>();
      // Drawn from the dependency to its dependent, so that what comes first is on the left.
      inside.forEach(
          e ->
              elkEdges.put(
                  e.key(),
                  ElkGraphUtil.createSimpleEdge(elkNodes.get(e.to()), elkNodes.get(e.from()))));
      run(root);
      sizes.put(ns, new double[] {root.getWidth(), root.getHeight()});
      Map<String, Layout.Box> boxes = new HashMap<>();
      elkNodes.forEach(
          (id, n) ->
              boxes.put(id, new Layout.Box(n.getX(), n.getY(), n.getWidth(), n.getHeight())));
      localNodes.put(ns, boxes);
      Map<String, List<Layout.Point>> lines = new HashMap<>();
      elkEdges.forEach((key, e) -> lines.put(key, points(e, 0, 0)));
      localEdges.put(ns, lines);
    }
    Map<String, Layout.Box> namespaces = arrange(graph, namespaceOf, sizes);
    for (String ns : byNamespace.keySet()) {
      Layout.Box at = namespaces.get(ns);
      localNodes
          .get(ns)
          .forEach(
              (id, b) ->
                  nodes.put(
                      id, new Layout.Box(b.x() + at.x(), b.y() + at.y(), b.width(), b.height())));
      localEdges
          .get(ns)
          .forEach(
              (key, line) ->
                  edges.put(
                      key,
                      line.stream()
                          .map(p -> new Layout.Point(p.x() + at.x(), p.y() + at.y()))
                          .toList()));
    }
    for (Graph.Edge edge : graph.edges()) {
      edges.computeIfAbsent(
          edge.key(), k -> straight(nodes.get(edge.to()), nodes.get(edge.from())));
    }
    double width =
        namespaces.values().stream().mapToDouble(b -> b.x() + b.width()).max().orElse(0) + SIDE;
    double height =
        namespaces.values().stream().mapToDouble(b -> b.y() + b.height()).max().orElse(0) + SIDE;
    return new Layout(width, height, nodes, namespaces, edges);
  }

  /** Places the namespace boxes: a layered layout of the graph of namespaces. */
  private static Map<String, Layout.Box> arrange(
      Graph graph, Map<String, String> namespaceOf, Map<String, double[]> sizes) {
    ElkNode root = root();
    root.setProperty(CoreOptions.PADDING, new ElkPadding(SIDE));
    Map<String, ElkNode> boxes = new LinkedHashMap<>();
    sizes.forEach(
        (ns, size) -> {
          ElkNode box = ElkGraphUtil.createNode(root);
          box.setDimensions(size[0], size[1]);
          boxes.put(ns, box);
        });
    Set<String> linked = new LinkedHashSet<>();
    for (Graph.Edge e : graph.edges()) {
      String from = namespaceOf.get(e.to());
      String to = namespaceOf.get(e.from());
      if (!from.equals(to) && linked.add(from + "\n" + to)) {
        ElkGraphUtil.createSimpleEdge(boxes.get(from), boxes.get(to));
      }
    }
    run(root);
    Map<String, Layout.Box> placed = new LinkedHashMap<>();
    boxes.forEach(
        (ns, b) -> placed.put(ns, new Layout.Box(b.getX(), b.getY(), b.getWidth(), b.getHeight())));
    return placed;
  }

  private static ElkNode root() {
    ElkNode root = ElkGraphUtil.createGraph();
    root.setProperty(CoreOptions.ALGORITHM, LayeredOptions.ALGORITHM_ID);
    root.setProperty(CoreOptions.DIRECTION, Direction.RIGHT);
    root.setProperty(CoreOptions.EDGE_ROUTING, EdgeRouting.POLYLINE);
    root.setProperty(CoreOptions.SPACING_NODE_NODE, 12.0);
    root.setProperty(LayeredOptions.SPACING_NODE_NODE_BETWEEN_LAYERS, 40.0);
    return root;
  }

  private static void run(ElkNode root) {
    new RecursiveGraphLayoutEngine().layout(root, new BasicProgressMonitor());
  }

  static double width(Graph.Node node) {
    String label = node.members() > 1 ? node.name() + " (" + node.members() + ")" : node.name();
    return Math.min(260, label.length() * CHAR_WIDTH + NODE_PADDING);
  }

  private static List<Layout.Point> straight(Layout.Box from, Layout.Box to) {
    return List.of(
        new Layout.Point(from.x() + from.width(), from.y() + from.height() / 2),
        new Layout.Point(to.x(), to.y() + to.height() / 2));
  }

  private static List<Layout.Point> points(ElkEdge edge, double dx, double dy) {
    List<Layout.Point> points = new ArrayList<>();
    for (ElkEdgeSection section : edge.getSections()) {
      points.add(new Layout.Point(section.getStartX() + dx, section.getStartY() + dy));
      for (ElkBendPoint bend : section.getBendPoints()) {
        points.add(new Layout.Point(bend.getX() + dx, bend.getY() + dy));
      }
      points.add(new Layout.Point(section.getEndX() + dx, section.getEndY() + dy));
    }
    return points;
  }
}
