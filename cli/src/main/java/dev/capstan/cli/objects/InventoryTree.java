package dev.capstan.cli.objects;

import dev.capstan.api.kustomize.HealthCheckExpression;
import dev.capstan.api.kustomize.InventoryEntry;
import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.engine.kustomization.HealthEvaluators;
import dev.capstan.health.HealthEvaluator;
import dev.capstan.health.cel.BuiltinLibrary;
import dev.capstan.health.cel.HealthCheckExpr;
import dev.capstan.health.cel.InvalidHealthCheckException;
import dev.capstan.health.status.ResourceStatus;
import dev.capstan.health.status.Status;
import dev.capstan.kube.InventoryId;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.PrintWriter;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * A Kustomization's or a HelmRelease's inventory as a tree: objects grouped by namespace
 * (cluster-scoped ones first), each with its live health; Kustomizations in the inventory nest
 * their own inventories. Its source or chart comes first (with its Ready status and revision), then
 * what it depends on, each dependency with its live state, then its last reconciles or releases.
 */
final class InventoryTree {
  static final String CLUSTER_SCOPED = "cluster-scoped";

  /** Reads live objects; empty when the object does not exist. */
  @FunctionalInterface
  interface LiveObjects {
    Optional<GenericKubernetesResource> get(
        String apiVersion, String kind, String namespace, String name);
  }

  private final LiveObjects live;
  private final BuiltinLibrary library;
  private final Clock clock;
  private final PrintWriter warnings;
  private final KubernetesSerialization serialization = new KubernetesSerialization();

  InventoryTree(LiveObjects live, BuiltinLibrary library, Clock clock, PrintWriter warnings) {
    this.live = live;
    this.library = library;
    this.clock = clock;
    this.warnings = warnings;
  }

  TreeNode of(TreeRoot root) {
    ResourceView view = root.view();
    String ready = view.conditionStatus(ResourceView.READY);
    String label =
        view.display()
            + "  Ready="
            + (ready.isEmpty() ? "Unknown" : ready)
            + (view.revision().isEmpty() ? "" : "  " + view.revision());
    // The Kustomizations on the path from the root, to stop at a cycle instead of recursing
    // forever.
    Set<String> ancestors = new HashSet<>();
    if (view.kind().equals(CapstanKind.KUSTOMIZATION.kind())) {
      ancestors.add(key(view.namespace(), view.name()));
    }
    HealthEvaluator health = evaluatorFor(view, root.healthCheckExprs());
    List<TreeNode> groups = groups(root.inventory(), health, ancestors);
    List<TreeNode> children = new ArrayList<>();
    root.source().ifPresent(source -> children.add(source(view.kind(), source)));
    if (!root.dependsOn().isEmpty()) {
      children.add(
          new TreeNode(
              "depends on",
              root.dependsOn().stream().map(d -> TreeNode.leaf(dependency(d, health))).toList()));
    }
    if (!root.history().isEmpty()) {
      children.add(
          new TreeNode(root.historyTitle(), root.history().stream().map(TreeNode::leaf).toList()));
    }
    children.addAll(
        groups.isEmpty() ? List.of(TreeNode.leaf("(no inventory: nothing applied yet)")) : groups);
    return new TreeNode(label, children);
  }

  /**
   * A Kustomization's source or a HelmRelease's chart, with its Ready status and artifact revision.
   */
  private TreeNode source(String rootKind, TreeRoot.ObjectRef ref) {
    String label =
        (rootKind.equals(CapstanKind.HELM_RELEASE.kind()) ? "chart " : "source ") + ref.display();
    Optional<GenericKubernetesResource> object;
    try {
      object = live.get(ref.apiVersion(), ref.kind(), ref.namespace(), ref.name());
    } catch (RuntimeException e) {
      return TreeNode.leaf(
          label + "  " + Status.Unknown + "  cannot read it: " + firstLine(e.getMessage()));
    }
    if (object.isEmpty()) {
      return TreeNode.leaf(label + "  " + Status.NotFound);
    }
    return TreeNode.leaf(label + "  " + readyAndRevision(object.get()));
  }

  /** A source's Ready status and artifact revision: every source kind writes both alike. */
  private static String readyAndRevision(GenericKubernetesResource object) {
    String revision =
        status(object).get("artifact") instanceof Map<?, ?> artifact
                && artifact.get("revision") instanceof String r
            ? r
            : "";
    return ready(object) + (revision.isEmpty() ? "" : "  " + revision);
  }

  /** {@code Ready=} and the status of the object's Ready condition, Unknown without one. */
  private static String ready(GenericKubernetesResource object) {
    String ready = "Unknown";
    if (status(object).get("conditions") instanceof List<?> conditions) {
      for (Object condition : conditions) {
        if (condition instanceof Map<?, ?> c
            && ResourceView.READY.equals(c.get("type"))
            && c.get("status") instanceof String s
            && !s.isEmpty()) {
          ready = s;
        }
      }
    }
    return "Ready=" + ready;
  }

  private static Map<?, ?> status(GenericKubernetesResource object) {
    return object.getAdditionalProperties().get("status") instanceof Map<?, ?> status
        ? status
        : Map.of();
  }

  private String dependency(TreeRoot.Dependency dependency, HealthEvaluator health) {
    TreeRoot.ObjectRef ref = dependency.object();
    String expr =
        dependency.readyExpr().isBlank() ? "" : "  readyExpr '" + dependency.readyExpr() + "'";
    Optional<GenericKubernetesResource> object;
    try {
      object = live.get(ref.apiVersion(), ref.kind(), ref.namespace(), ref.name());
    } catch (RuntimeException e) {
      return dependency.label()
          + "  "
          + Status.Unknown
          + "  cannot read it: "
          + firstLine(e.getMessage())
          + expr;
    }
    if (object.isEmpty()) {
      return dependency.label() + "  " + Status.NotFound + expr;
    }
    if (dependency.sameKind()) {
      return dependency.label() + "  " + ready(object.get()) + expr;
    }
    return dependency.label() + "  " + describe(health.status(object.get())) + expr;
  }

  private List<TreeNode> groups(
      List<InventoryEntry> entries, HealthEvaluator health, Set<String> ancestors) {
    Map<String, List<TreeNode>> byNamespace = new TreeMap<>();
    List<TreeNode> clusterScoped = new ArrayList<>();
    for (InventoryEntry entry : entries) {
      InventoryId id;
      try {
        id = InventoryId.parse(entry.id());
      } catch (IllegalArgumentException e) {
        clusterScoped.add(TreeNode.leaf("? " + e.getMessage()));
        continue;
      }
      TreeNode node = node(id, entry.v(), health, ancestors);
      (id.clusterScoped()
              ? clusterScoped
              : byNamespace.computeIfAbsent(id.namespace(), n -> new ArrayList<>()))
          .add(node);
    }
    List<TreeNode> groups = new ArrayList<>();
    if (!clusterScoped.isEmpty()) {
      groups.add(new TreeNode(CLUSTER_SCOPED, clusterScoped));
    }
    byNamespace.forEach((ns, nodes) -> groups.add(new TreeNode("namespace " + ns, nodes)));
    return groups;
  }

  private TreeNode node(
      InventoryId id, String version, HealthEvaluator health, Set<String> ancestors) {
    String label = id.kind() + "/" + id.name();
    Optional<GenericKubernetesResource> object;
    try {
      object =
          live.get(
              id.apiVersion(version == null ? "" : version), id.kind(), id.namespace(), id.name());
    } catch (RuntimeException e) {
      // One unreadable object (an API no longer served, no permission) must not hide the others.
      return TreeNode.leaf(
          label + "  " + Status.Unknown + "  cannot read it: " + firstLine(e.getMessage()));
    }
    if (object.isEmpty()) {
      return TreeNode.leaf(label + "  " + Status.NotFound);
    }
    String line = label + "  " + describe(health.status(object.get()));
    if (!isKustomization(id)) {
      return TreeNode.leaf(line);
    }
    String key = key(id.namespace(), id.name());
    if (!ancestors.add(key)) {
      return TreeNode.leaf(line + "  (cycle: it contains itself through the inventories above)");
    }
    TreeRoot nested = TreeRoot.of(serialization.convertValue(object.get(), Kustomization.class));
    HealthEvaluator nestedHealth = evaluatorFor(nested.view(), nested.healthCheckExprs());
    TreeNode node = new TreeNode(line, groups(nested.inventory(), nestedHealth, ancestors));
    ancestors.remove(key);
    return node;
  }

  private HealthEvaluator evaluatorFor(ResourceView view, List<HealthCheckExpression> exprs) {
    List<HealthCheckExpr> converted = HealthEvaluators.checksOf(exprs);
    try {
      return HealthEvaluator.create(converted, library, clock);
    } catch (InvalidHealthCheckException e) {
      warnings.println(
          "warning: "
              + view.kind()
              + " "
              + view.name()
              + ": its healthCheckExprs are ignored here: "
              + e.getMessage());
      return HealthEvaluator.create(List.of(), library, clock);
    }
  }

  private static String describe(ResourceStatus status) {
    if (status.status() == Status.Current || status.message().isEmpty()) {
      return status.status().name();
    }
    return status.status() + "  " + firstLine(status.message());
  }

  private static boolean isKustomization(InventoryId id) {
    return "Kustomization".equals(id.kind()) && Kustomization.GROUP.equals(id.group());
  }

  private static String key(String namespace, String name) {
    return namespace + "/" + name;
  }

  private static String firstLine(String text) {
    return text == null ? "" : text.lines().findFirst().orElse("");
  }
}
