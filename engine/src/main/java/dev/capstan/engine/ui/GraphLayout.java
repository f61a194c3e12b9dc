package dev.capstan.engine.ui;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.elk.alg.layered.options.LayeredOptions;
import org.eclipse.elk.core.RecursiveGraphLayoutEngine;
import org.eclipse.elk.core.math.ElkPadding;
import org.eclipse.elk.core.options.CoreOptions;
import org.eclipse.elk.core.options.Direction;
import org.eclipse.elk.core.options.EdgeRouting;
import org.eclipse.elk.core.options.HierarchyHandling;
import org.eclipse.elk.core.util.BasicProgressMonitor;
import org.eclipse.elk.graph.ElkBendPoint;
import org.eclipse.elk.graph.ElkEdge;
import org.eclipse.elk.graph.ElkEdgeSection;
import org.eclipse.elk.graph.ElkNode;
import org.eclipse.elk.graph.util.ElkGraphUtil;

/**
 * Lays the graph out with Eclipse ELK's layered algorithm (Sugiyama style: dependencies left of
 * their dependents' layer order, edges crossing as little as it can), each namespace a box around
 * its nodes, edges across namespaces routed through the hierarchy.
 */
final class GraphLayout {
  static final double NODE_HEIGHT = 28;
  private static final double CHAR_WIDTH = 7;
  private static final double NODE_PADDING = 24;

  Layout layout(Graph graph) {
    ElkNode root = ElkGraphUtil.createGraph();
    root.setProperty(CoreOptions.ALGORITHM, LayeredOptions.ALGORITHM_ID);
    root.setProperty(CoreOptions.DIRECTION, Direction.RIGHT);
    root.setProperty(CoreOptions.HIERARCHY_HANDLING, HierarchyHandling.INCLUDE_CHILDREN);
    root.setProperty(CoreOptions.EDGE_ROUTING, EdgeRouting.POLYLINE);
    root.setProperty(CoreOptions.SPACING_NODE_NODE, 12.0);
    root.setProperty(LayeredOptions.SPACING_NODE_NODE_BETWEEN_LAYERS, 40.0);
    Map<String, ElkNode> groups = new LinkedHashMap<>();
    Map<String, ElkNode> nodes = new LinkedHashMap<>();
    for (Graph.Node node : graph.nodes()) {
      ElkNode group = groups.computeIfAbsent(node.namespace(), ns -> group(root));
      ElkNode elk = ElkGraphUtil.createNode(group);
      elk.setDimensions(width(node), NODE_HEIGHT);
      nodes.put(node.id(), elk);
    }
    Map<String, ElkEdge> edges = new LinkedHashMap<>();
    for (Graph.Edge edge : graph.edges()) {
      // Drawn from the dependency to its dependent, so that what comes first is on the left.
      ElkEdge elk = ElkGraphUtil.createSimpleEdge(nodes.get(edge.to()), nodes.get(edge.from()));
      ElkGraphUtil.updateContainment(elk);
      edges.put(edge.key(), elk);
    }
    new RecursiveGraphLayoutEngine().layout(root, new BasicProgressMonitor());
    return read(root, groups, nodes, edges);
  }

  private static ElkNode group(ElkNode root) {
    ElkNode group = ElkGraphUtil.createNode(root);
    group.setProperty(CoreOptions.PADDING, new ElkPadding(22, 10, 10, 10));
    return group;
  }

  static double width(Graph.Node node) {
    String label = node.members() > 1 ? node.name() + " (" + node.members() + ")" : node.name();
    return Math.min(260, label.length() * CHAR_WIDTH + NODE_PADDING);
  }

  private static Layout read(ElkNode root, Map<String, ElkNode> groups, Map<String, ElkNode> nodes,
      Map<String, ElkEdge> edges) {
    Map<String, Layout.Box> groupBoxes = new LinkedHashMap<>();
    groups.forEach((ns, g) -> groupBoxes.put(ns, box(g, 0, 0)));
    Map<String, Layout.Box> nodeBoxes = new HashMap<>();
    nodes.forEach((id, n) -> {
      ElkNode parent = n.getParent();
      nodeBoxes.put(id, box(n, parent.getX(), parent.getY()));
    });
    Map<String, List<Layout.Point>> lines = new HashMap<>();
    edges.forEach((key, e) -> lines.put(key, points(e)));
    return new Layout(root.getWidth(), root.getHeight(), nodeBoxes, groupBoxes, lines);
  }

  private static Layout.Box box(ElkNode n, double offsetX, double offsetY) {
    return new Layout.Box(n.getX() + offsetX, n.getY() + offsetY, n.getWidth(), n.getHeight());
  }

  // Edge coordinates are relative to the node that contains the edge.
  private static List<Layout.Point> points(ElkEdge edge) {
    double dx = 0;
    double dy = 0;
    for (ElkNode c = edge.getContainingNode(); c != null && c.getParent() != null; c = c.getParent()) {
      dx += c.getX();
      dy += c.getY();
    }
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
