package dev.capstan.ui;

import dev.capstan.api.kustomize.DependencyReference;
import dev.capstan.api.kustomize.Kustomization;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The dependsOn graph: one node per Kustomization and per other object a Kustomization depends on,
 * one edge per dependsOn entry from the dependent to its dependency. An edge is waiting when the
 * dependent reports DependencyNotReady and the dependency is not Ready.
 */
record Graph(List<Node> nodes, List<Edge> edges) {

  /**
   * @param id {@code Kind/namespace/name} ({@code Namespace/name} for a collapsed namespace)
   * @param kustomization whether the node is a Kustomization (it has a page)
   * @param members how many nodes a collapsed namespace stands for; 1 otherwise
   */
  record Node(
      String id,
      String kind,
      String namespace,
      String name,
      NodeState state,
      boolean kustomization,
      int members) {}

  record Edge(String from, String to, boolean waiting) {
    String key() {
      return from + "->" + to;
    }
  }

  static final String DEPENDENCY_NOT_READY = "DependencyNotReady";

  static Graph of(Collection<Kustomization> kustomizations) {
    Map<String, Node> nodes = new LinkedHashMap<>();
    Map<String, Row> rows = new LinkedHashMap<>();
    for (Kustomization ks : kustomizations) {
      Row row = Overview.row(ks);
      String id = id("Kustomization", row.namespace(), row.name());
      rows.put(id, row);
      nodes.put(
          id,
          new Node(id, "Kustomization", row.namespace(), row.name(), NodeState.of(row), true, 1));
    }
    Set<Edge> edges = new LinkedHashSet<>();
    for (Kustomization ks : kustomizations) {
      if (ks.getSpec() == null || ks.getSpec().dependsOn() == null) {
        continue;
      }
      String from =
          id("Kustomization", ks.getMetadata().getNamespace(), ks.getMetadata().getName());
      boolean reportsWaiting = DEPENDENCY_NOT_READY.equals(rows.get(from).reason());
      for (DependencyReference dep : ks.getSpec().dependsOn()) {
        Node target = target(dep, ks.getMetadata().getNamespace(), nodes);
        nodes.putIfAbsent(target.id(), target);
        boolean waiting = reportsWaiting && target.state() != NodeState.READY;
        edges.add(new Edge(from, target.id(), waiting));
      }
    }
    return new Graph(sorted(nodes.values()), List.copyOf(edges));
  }

  private static Node target(
      DependencyReference dep, String defaultNamespace, Map<String, Node> known) {
    String kind = dep.kind() == null || dep.kind().isEmpty() ? "Kustomization" : dep.kind();
    boolean isKustomization =
        "Kustomization".equals(kind)
            && (dep.apiVersion() == null || dep.apiVersion().startsWith(Kustomization.GROUP + "/"));
    String namespace =
        dep.namespace() == null || dep.namespace().isEmpty() ? defaultNamespace : dep.namespace();
    String id = id(isKustomization ? "Kustomization" : kind, namespace, dep.name());
    Node existing = known.get(id);
    return existing != null
        ? existing
        : new Node(id, kind, namespace, dep.name(), NodeState.UNKNOWN, false, 1);
  }

  static String id(String kind, String namespace, String name) {
    return kind + "/" + namespace + "/" + name;
  }

  /** The namespaces of the nodes, sorted. */
  List<String> namespaces() {
    return nodes.stream().map(Node::namespace).distinct().sorted().toList();
  }

  /**
   * The graph with each namespace in {@code collapsed} drawn as one node: its state is the worst of
   * its members', edges between two of its members disappear and the others are merged.
   */
  Graph collapse(Set<String> collapsed) {
    if (collapsed.isEmpty()) {
      return this;
    }
    Map<String, String> replacement = new LinkedHashMap<>();
    Map<String, Node> merged = new LinkedHashMap<>();
    for (Node node : nodes) {
      if (!collapsed.contains(node.namespace())) {
        merged.put(node.id(), node);
        continue;
      }
      String groupId = "Namespace/" + node.namespace();
      replacement.put(node.id(), groupId);
      merged.merge(
          groupId,
          new Node(
              groupId, "Namespace", node.namespace(), node.namespace(), node.state(), false, 1),
          (a, b) ->
              new Node(
                  a.id(),
                  a.kind(),
                  a.namespace(),
                  a.name(),
                  a.state().worse(b.state()),
                  false,
                  a.members() + 1));
    }
    Map<String, Edge> edges = new LinkedHashMap<>();
    for (Edge edge : this.edges) {
      String from = replacement.getOrDefault(edge.from(), edge.from());
      String to = replacement.getOrDefault(edge.to(), edge.to());
      if (!from.equals(to)) {
        edges.merge(
            from + "->" + to,
            new Edge(from, to, edge.waiting()),
            (a, b) -> new Edge(a.from(), a.to(), a.waiting() || b.waiting()));
      }
    }
    return new Graph(sorted(merged.values()), new ArrayList<>(edges.values()));
  }

  /** What the layout depends on: node ids and edges, not their colours. */
  String structure() {
    StringBuilder key = new StringBuilder();
    nodes.forEach(n -> key.append(n.id()).append('\n'));
    edges.forEach(e -> key.append(e.key()).append('\n'));
    return key.toString();
  }

  private static List<Node> sorted(Collection<Node> nodes) {
    return nodes.stream()
        .sorted(Comparator.comparing(Node::namespace).thenComparing(Node::id))
        .toList();
  }
}
